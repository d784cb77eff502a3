import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { ProvidingSide, runFacets, type RunningFacets } from '@pi/host-kit';
import type {
  CoordinatorFacet,
  FleetPluginScope,
  FleetRecordChange,
  SessionFileOrigin,
  SessionRecord,
} from '@pi/plugin-api';
import type { ServiceRegistry } from '@pi/remote';

/** How a memory fleet's processes start: at once, with a failure, or only when the start's context aborts. */
export type MemoryStart = 'start' | 'fail' | 'hang';

export interface MemoryFleet {
  readonly fleet: FleetPluginScope;
  readonly records: ReadonlyMap<string, SessionRecord>;
  /** Adds a record as if it had been stored earlier. */
  seed(record: Omit<SessionRecord, 'createdAt' | 'updatedAt'>): void;
  /** Adds a session file, as if a session process (or a fork) had written it with this origin. */
  seedFile(sessionId: string, origin: SessionFileOrigin): void;
  /** Applies a change as another coordinator sharing the store would, and announces it (`records.onChanged`). */
  elsewhere(change: FleetRecordChange): void;
}

/**
 * Fleet authority in memory, for testing coordinator facets without SQLite or processes: records in a map,
 * processes that start (idle), fail with "no such program", or hang until the start is cancelled.
 */
export function memoryFleet(start: MemoryStart = 'start'): MemoryFleet {
  const records = new Map<string, SessionRecord>();
  const files = new Map<string, SessionFileOrigin>();
  const listeners = new Set<(record: SessionRecord, context: Context) => void>();
  const changeListeners = new Set<(change: FleetRecordChange, context: Context) => void>();
  let next = 0;
  const setStatus = (sessionId: string, status: SessionRecord['status']): SessionRecord => {
    const current = records.get(sessionId);
    if (current === undefined) throw new Error(`No session ${sessionId}`);
    const record = { ...current, status };
    records.set(sessionId, record);
    for (const listener of listeners) listener(record, BACKGROUND_CONTEXT);
    return record;
  };
  const fleet: FleetPluginScope = {
    records: {
      list: async () => [...records.values()],
      get: async (sessionId) => records.get(sessionId),
      create: async (record) => {
        const created: SessionRecord = {
          ...record,
          provisionalTitle: record.provisionalTitle === true,
          sessionId: record.sessionId ?? `s-${++next}`,
          status: 'closed',
          createdAt: 'then',
          updatedAt: 'then',
        };
        records.set(created.sessionId, created);
        return created;
      },
      rename: async (sessionId, title) => {
        const record = { ...(records.get(sessionId) as SessionRecord), title, provisionalTitle: false };
        records.set(sessionId, record);
        return record;
      },
      suggestTitle: async (sessionId, title) => {
        const current = records.get(sessionId) as SessionRecord;
        if (!current.provisionalTitle) return current;
        const record = { ...current, title, provisionalTitle: false };
        records.set(sessionId, record);
        return record;
      },
      remove: async (sessionId) => void records.delete(sessionId),
      onChanged: (listener) => {
        changeListeners.add(listener);
        return () => void changeListeners.delete(listener);
      },
    },
    files: { origin: async (sessionId) => files.get(sessionId) },
    processes: {
      start: async (sessionId, context) => {
        if (start === 'fail') throw new Error('no such program');
        if (start === 'hang') {
          await new Promise((_, reject) => {
            const cancel = () => reject(new Error('cancelled'));
            if (context.abortSignal?.aborted) cancel();
            context.abortSignal?.addEventListener('abort', cancel);
          });
        }
        return setStatus(sessionId, 'idle');
      },
      stop: async (sessionId) => void setStatus(sessionId, 'closed'),
      onStatusChanged: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
  return {
    fleet,
    records,
    seed: (record) => void records.set(record.sessionId, { ...record, createdAt: 'then', updatedAt: 'then' }),
    seedFile: (sessionId, origin) => void files.set(sessionId, origin),
    elsewhere: (change) => {
      if (change.kind === 'changed') records.set(change.record.sessionId, change.record);
      if (change.kind === 'removed') records.delete(change.sessionId);
      for (const listener of [...changeListeners]) listener(change, BACKGROUND_CONTEXT);
    },
  };
}

/** Runs coordinator facets as the coordinator host does (the kernel's two phases over a providing side). */
export async function startTestCoordinatorFacets(
  facets: ReadonlyArray<{ readonly id: string; readonly facet: CoordinatorFacet }>,
  fleet: FleetPluginScope = memoryFleet().fleet,
): Promise<{ readonly services: ServiceRegistry; readonly running: RunningFacets }> {
  const side = new ProvidingSide();
  const running = await runFacets(
    facets.map((facet) => ({ ...facet, config: null })),
    (scope, facet) => ({ ...side.contextFor(scope, facet.id, facet.config), fleet }),
    (failure) => side.failures.record(failure.pluginId, failure.message),
  );
  return { services: side.services, running: running._unsafeUnwrap() };
}
