import type { Result } from 'neverthrow';
import pg from 'pg';
import { runListener } from '@pi/remote';
import { changeChannel, quoteIdentifier } from './postgres-migrations';
import type { SessionRepoError } from './session-repo-error';

/**
 * A change to one record, by whichever process made it; or `resync` each time listening begins (the first time, and
 * after the connection was lost and regained), when changes may have been missed and everything must be read again;
 * or `stop_requested`: a replica was asked to stop a session it does not run (`requestStop`), and the one that runs
 * it should stop it.
 */
export type SessionRecordChange =
  | {
      readonly kind: 'created' | 'updated' | 'removed';
      readonly sessionId: string;
      readonly workspaceId: string;
      readonly updatedAt: string;
    }
  | { readonly kind: 'stop_requested'; readonly sessionId: string }
  | { readonly kind: 'resync' };

export interface RecordChanges {
  /** Calls the listener for every record change in the database (`LISTEN/NOTIFY`); returns the unsubscribe. */
  onChange(listener: (change: SessionRecordChange) => void): () => void;
  /**
   * Announces `stop_requested` for the session to every repository listening on the database (the replica that runs
   * it stops it). Ids only, as every announcement; what comes of it is the record's own change.
   */
  requestStop(sessionId: string): Promise<Result<void, SessionRepoError>>;
  /** Resolves once changes are being listened for (after the first `onChange`), so the next one is not missed. */
  listening(): Promise<void>;
}

/** How long to wait before listening again after the connection was lost. */
const RELISTEN_DELAY_MS = 500;

/**
 * One listening connection per repository, opened at the first subscriber and kept (re-opened when lost) while the
 * repository is open.
 */
export function recordChanges(
  config: pg.ClientConfig,
  schema: string,
): Omit<RecordChanges, 'requestStop'> & { close(): Promise<void> } {
  const listeners = new Set<(change: SessionRecordChange) => void>();
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const emit = (change: SessionRecordChange) => {
    for (const listener of [...listeners])
      runListener(() => listener(change), 'A session record change listener threw');
  };

  const lost = (lostClient: pg.Client) => {
    if (client !== lostClient) return;
    client = undefined;
    lostClient.end().catch(() => undefined);
    scheduleListen();
  };

  const scheduleListen = () => {
    if (closed || retry !== undefined || listeners.size === 0) return;
    retry = setTimeout(() => {
      retry = undefined;
      void listen();
    }, RELISTEN_DELAY_MS);
    retry.unref();
  };

  const listen = (): Promise<void> =>
    (connecting ??= (async () => {
      const next = new pg.Client(config);
      next.on('error', () => lost(next));
      next.on('end', () => lost(next));
      next.on('notification', (message) => {
        const change = parseChange(message.payload);
        if (change !== undefined) emit(change);
      });
      try {
        await next.connect();
        await next.query(`LISTEN ${quoteIdentifier(changeChannel(schema))}`);
        if (closed) {
          await next.end();
          return;
        }
        client = next;
        // Whatever changed before listening began (or while it was lost) was not announced.
        emit({ kind: 'resync' });
      } catch {
        await next.end().catch(() => undefined);
        scheduleListen();
      } finally {
        connecting = undefined;
      }
    })());

  return {
    onChange: (listener) => {
      listeners.add(listener);
      if (client === undefined && !closed) void listen();
      return () => void listeners.delete(listener);
    },
    listening: async () => {
      if (!closed && client === undefined && listeners.size > 0) await (connecting ?? listen());
    },
    close: async () => {
      closed = true;
      clearTimeout(retry);
      listeners.clear();
      await connecting;
      const last = client;
      client = undefined;
      await last?.end().catch(() => undefined);
    },
  };
}

function parseChange(payload: string | undefined): SessionRecordChange | undefined {
  try {
    const value = JSON.parse(payload ?? '') as Record<string, unknown>;
    const { kind, sessionId, workspaceId, updatedAt } = value;
    // { kind: 'stop_requested', sessionId }: sent by `requestStop`, not by the trigger.
    if (kind === 'stop_requested' && typeof sessionId === 'string') return { kind, sessionId };
    if (
      (kind === 'created' || kind === 'updated' || kind === 'removed') &&
      typeof sessionId === 'string' &&
      typeof workspaceId === 'string' &&
      typeof updatedAt === 'string'
    )
      return { kind, sessionId, workspaceId, updatedAt };
    return undefined;
  } catch {
    return undefined;
  }
}
