import type { SessionRecord, SessionStatus } from '@pi/plugin-api';

/** A `sessions` row as the driver returns it. */
export interface PostgresSessionRow {
  readonly session_id: string;
  readonly title: string;
  readonly provisional_title: boolean;
  readonly workspace_id: string;
  readonly owner_id: string;
  readonly cwd: string;
  readonly status: SessionStatus;
  readonly created_at: Date;
  readonly updated_at: Date;
}

const ORDER = 'ORDER BY updated_at DESC, session_id ASC';

/** Only the row the writer read, when it names one ($4: its `updatedAt`, or null). */
const AS_READ = '($4::timestamptz IS NULL OR updated_at = $4::timestamptz)';

/** A change's `updated_at`: the clock, or a millisecond past the previous one, so no two changes share it. */
const NEXT_UPDATED_AT = "GREATEST($3::timestamptz, updated_at + interval '1 millisecond')";

/**
 * Every statement the repository runs. The workspace policy filters each of them as well: these WHERE clauses say
 * what a call wants, the policy what its scope may see.
 */
export const POSTGRES_STATEMENTS = {
  /** No row back: the id is taken (by a record of any workspace: the key is checked whatever the policy shows). */
  insert: `INSERT INTO sessions
      (session_id, title, provisional_title, workspace_id, owner_id, cwd, status, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (session_id) DO NOTHING RETURNING *`,
  get: 'SELECT * FROM sessions WHERE session_id = $1',
  list: `SELECT * FROM sessions ${ORDER}`,
  listByWorkspace: `SELECT * FROM sessions WHERE workspace_id = $1 ${ORDER}`,
  /** $1 id, $2 title, $3 now, $4 expected. */
  rename: `UPDATE sessions SET title = $2, provisional_title = false,
      updated_at = CASE WHEN title = $2 THEN updated_at ELSE ${NEXT_UPDATED_AT} END
    WHERE session_id = $1 AND ${AS_READ} RETURNING *`,
  suggestTitle: `UPDATE sessions SET title = $2, provisional_title = false,
      updated_at = CASE WHEN title = $2 THEN updated_at ELSE ${NEXT_UPDATED_AT} END
    WHERE session_id = $1 AND provisional_title AND ${AS_READ} RETURNING *`,
  /** $1 id, $2 status, $3 now, $4 expected. */
  setStatus: `UPDATE sessions SET status = $2,
      updated_at = CASE WHEN status = $2 THEN updated_at ELSE ${NEXT_UPDATED_AT} END
    WHERE session_id = $1 AND ${AS_READ} RETURNING *`,
  /** $1 id, $2 expected. */
  remove: 'DELETE FROM sessions WHERE session_id = $1 AND ($2::timestamptz IS NULL OR updated_at = $2::timestamptz)',
} as const;

export function toSessionRecordFromPostgres(row: PostgresSessionRow): SessionRecord {
  return {
    sessionId: row.session_id,
    title: row.title,
    provisionalTitle: row.provisional_title,
    workspaceId: row.workspace_id,
    ownerId: row.owner_id,
    cwd: row.cwd,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
