import type { SessionRecord, SessionStatus } from '@pi/plugin-api';
import type { Database } from './sqlite-driver';

/** A `sessions` row as stored (migrations 1 and 2). */
export interface SessionRow {
  readonly session_id: string;
  readonly title: string;
  /** 1: a placeholder the first prompt replaces. */
  readonly provisional_title: 0 | 1;
  readonly workspace_id: string;
  readonly owner_id: string;
  readonly cwd: string;
  readonly status: SessionStatus;
  readonly created_at: string;
  readonly updated_at: string;
}

interface InsertParameters {
  readonly sessionId: string;
  readonly title: string;
  readonly provisionalTitle: 0 | 1;
  readonly workspaceId: string;
  readonly ownerId: string;
  readonly cwd: string;
  readonly status: SessionStatus;
  readonly at: string;
}

/** The writer's copy of `updated_at`, or null for a write that does not check it. */
type Expected = { readonly expected: string | null };

export interface SessionStatements {
  readonly insert: Statement<[InsertParameters], SessionRow>;
  readonly get: Statement<[string], SessionRow>;
  readonly list: Statement<[], SessionRow>;
  readonly listByWorkspace: Statement<[string], SessionRow>;
  /** A chosen title; `updated_at` moves only when the title changes; no row back: no such record, or a conflict. */
  readonly rename: Statement<[{ sessionId: string; title: string; at: string } & Expected], SessionRow>;
  /** Replaces a provisional title only; no row back: no such record, a chosen title, or a conflict. */
  readonly suggestTitle: Statement<[{ sessionId: string; title: string; at: string } & Expected], SessionRow>;
  /** `updated_at` moves only when the status changes; no row back: no such record, or a conflict. */
  readonly setStatus: Statement<[{ sessionId: string; status: SessionStatus; at: string } & Expected], SessionRow>;
  readonly remove: Statement<[{ sessionId: string } & Expected], SessionRow>;
}

/** A prepared statement typed by what it binds and the rows it returns (the driver's own rows are untyped). */
interface Statement<Bound extends unknown[], Row> {
  get(...parameters: Bound): Row | undefined;
  all(...parameters: Bound): Row[];
  run(...parameters: Bound): { readonly changes: number | bigint };
}

const ORDER = 'ORDER BY updated_at DESC, session_id ASC';

/** Only the row the writer read, when it names one. */
const AS_READ = '(@expected IS NULL OR updated_at = @expected)';

/** A change's `updated_at`: the clock, or a millisecond past the previous one, so no two changes share it. */
const NEXT_UPDATED_AT = "max(@at, strftime('%Y-%m-%dT%H:%M:%fZ', updated_at, '+0.001 seconds'))";

/** Every statement the repository runs, prepared once per connection. */
export function sessionStatements(db: Database): SessionStatements {
  return {
    insert: db.prepare(
      `INSERT INTO sessions
         (session_id, title, provisional_title, workspace_id, owner_id, cwd, status, created_at, updated_at)
       VALUES (@sessionId, @title, @provisionalTitle, @workspaceId, @ownerId, @cwd, @status, @at, @at) RETURNING *`,
    ),
    get: db.prepare('SELECT * FROM sessions WHERE session_id = ?'),
    list: db.prepare(`SELECT * FROM sessions ${ORDER}`),
    listByWorkspace: db.prepare(`SELECT * FROM sessions WHERE workspace_id = ? ${ORDER}`),
    rename: db.prepare(
      `UPDATE sessions SET title = @title, provisional_title = 0,
         updated_at = CASE WHEN title = @title THEN updated_at ELSE ${NEXT_UPDATED_AT} END
       WHERE session_id = @sessionId AND ${AS_READ} RETURNING *`,
    ),
    suggestTitle: db.prepare(
      `UPDATE sessions SET title = @title, provisional_title = 0,
         updated_at = CASE WHEN title = @title THEN updated_at ELSE ${NEXT_UPDATED_AT} END
       WHERE session_id = @sessionId AND provisional_title = 1 AND ${AS_READ} RETURNING *`,
    ),
    setStatus: db.prepare(
      `UPDATE sessions SET status = @status,
         updated_at = CASE WHEN status = @status THEN updated_at ELSE ${NEXT_UPDATED_AT} END
       WHERE session_id = @sessionId AND ${AS_READ} RETURNING *`,
    ),
    remove: db.prepare(`DELETE FROM sessions WHERE session_id = @sessionId AND ${AS_READ}`),
  };
}

export function toSessionRecord(row: SessionRow): SessionRecord {
  return {
    sessionId: row.session_id,
    title: row.title,
    provisionalTitle: row.provisional_title === 1,
    workspaceId: row.workspace_id,
    ownerId: row.owner_id,
    cwd: row.cwd,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
