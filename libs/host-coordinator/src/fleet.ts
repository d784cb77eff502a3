import type { Result } from 'neverthrow';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import type { PluginLifecycleScope } from '@pi/kernel';
import type { FleetPluginScope, FleetRecordChange, SessionRecord } from '@pi/plugin-api';
import { RemoteError, runListener } from '@pi/remote';
import type { SessionOrchestrator, StatusChange } from '@pi/session-processes';
import { checkSessionId, type SessionRecordChange, type SessionRepo, type SessionRepoError } from '@pi/session-repo';
import { IdleStops } from './idle-stops';
import { readSessionFileOrigin } from './session-file-origin';

/** What the host uses of the application's process manager: the orchestrator adapter (a test gives a stand-in). */
export type SessionProcessControl = SessionOrchestrator;

type StatusListener = (record: SessionRecord, context: Context) => void;
type ChangeListener = (change: FleetRecordChange, context: Context) => void;

/**
 * The coordinator application's fleet authority: the raw repository and process manager, with the status of
 * every record written from what the process manager observes. Facets get only `scopeFor`'s narrowed views.
 */
export class Fleet {
  readonly #repo: SessionRepo;
  readonly #processes: SessionProcessControl;
  readonly #sessionFile: (sessionId: string) => string;
  readonly #listeners = new Set<StatusListener>();
  readonly #changeListeners = new Set<ChangeListener>();
  /** Store changes are read back one at a time, so listeners hear them in the order the store announced them. */
  #changesRead: Promise<void> = Promise.resolve();
  readonly #stopHearing: () => void;
  /** Status writes per session, in order: a later change never lands before an earlier one. */
  readonly #writes = new Map<string, Promise<void>>();
  /** The context of the call that is changing a session's process, so its status changes carry that trace. */
  readonly #causes = new Map<string, Context>();
  readonly #stopWatching: () => void;
  /** Session processes that may be starting at once: more would share the CPU until every one timed out. */
  readonly #startSlots: StartSlots;
  readonly #idleStops: IdleStops;
  /** Stops waiting for a session that runs through another replica to be closed there (`#stopElsewhere`). */
  readonly #closedWaiters = new Map<string, Set<() => void>>();
  readonly #stopElsewhereMs: number;

  constructor(
    repo: SessionRepo,
    processes: SessionProcessControl,
    sessionFile: (sessionId: string) => string,
    limits: {
      readonly maxConcurrentStarts?: number;
      readonly idleStopMs?: number;
      /** How long a stop waits for another replica to close a session it runs (default 20 s). */
      readonly stopElsewhereMs?: number;
    } = {},
  ) {
    this.#stopElsewhereMs = limits.stopElsewhereMs ?? 20_000;
    this.#repo = repo;
    this.#processes = processes;
    this.#sessionFile = sessionFile;
    this.#startSlots = new StartSlots(limits.maxConcurrentStarts ?? 4);
    this.#idleStops = new IdleStops(
      limits.idleStopMs ?? 0,
      (sessionId) => {
        this.stop(sessionId, BACKGROUND_CONTEXT).catch((error: unknown) =>
          process.emitWarning(
            `Stopping idle session ${sessionId} failed: ${error instanceof Error ? error.message : String(error)}`,
            { code: 'PI_IDLE_STOP' },
          ),
        );
      },
      (sessionId) => processes.status(sessionId),
    );
    this.#stopWatching = processes.onStatusChanged((change) => this.#record(change));
    this.#stopHearing = repo.shared?.onChange((change) => this.#heard(change)) ?? (() => undefined);
  }

  /** Resolves once the store's change announcements are being heard (at once for a store without them). */
  async hearing(): Promise<void> {
    await this.#repo.shared?.listening();
  }

  /** What a session said of its own work in its presence report (undefined: it did not say). */
  reported(sessionId: string, busy: boolean | undefined): void {
    this.#idleStops.busy(sessionId, busy);
  }

  /** Resolves once every status change observed so far is written and announced. */
  async settled(sessionId: string): Promise<void> {
    await this.#writes.get(sessionId);
  }

  /** Narrowed views for one plugin; its status listeners are owned by its scope. */
  scopeFor(scope: PluginLifecycleScope): FleetPluginScope {
    return Object.freeze({
      records: Object.freeze({
        list: async () => this.#repo.list(),
        get: async (sessionId: string) => this.#repo.get(sessionId),
        create: async (record: Parameters<FleetPluginScope['records']['create']>[0]) =>
          unwrap(await this.#repo.create(record)),
        rename: async (sessionId: string, title: string) => unwrap(await this.#repo.rename(sessionId, title)),
        suggestTitle: async (sessionId: string, title: string) =>
          unwrap(await this.#repo.suggestTitle(sessionId, title)),
        remove: async (sessionId: string) => {
          if (this.#processes.status(sessionId) !== 'closed') {
            throw new RemoteError('session_running', `Session ${sessionId} is running; stop it first`);
          }
          // In a shared store another replica may run it: its status there is the stored one, which that one writes.
          const stored = this.#repo.shared === undefined ? undefined : await this.#repo.get(sessionId);
          if (stored !== undefined && stored.status !== 'closed') {
            throw new RemoteError(
              'session_running',
              `Session ${sessionId} is running on another coordinator; stop it there first`,
            );
          }
          unwrap(await this.#repo.remove(sessionId));
        },
        onChanged: (listener: ChangeListener) => {
          const entry: ChangeListener = (change, context) => listener(change, context);
          this.#changeListeners.add(entry);
          const remove = () => void this.#changeListeners.delete(entry);
          scope.own(remove);
          return remove;
        },
      }),
      files: Object.freeze({
        origin: async (sessionId: string) =>
          // The id names a file: one that is not a valid id names none (and never a path elsewhere).
          checkSessionId(sessionId).isOk() ? readSessionFileOrigin(this.#sessionFile(sessionId), sessionId) : undefined,
      }),
      processes: Object.freeze({
        start: (sessionId: string, context: Context) => this.start(sessionId, context),
        stop: (sessionId: string, context: Context) => this.stop(sessionId, context),
        onStatusChanged: (listener: StatusListener) => {
          const remove = this.#listen(listener);
          scope.own(remove);
          return remove;
        },
      }),
    });
  }

  /** Starts the record's session process and resolves with its record once it is connected upstream. */
  async start(sessionId: string, context: Context): Promise<SessionRecord> {
    const record = await this.#repo.get(sessionId);
    if (record === undefined) throw new RemoteError('unknown_session', `No session ${sessionId}`);
    if (context.abortSignal?.aborted) throw new RemoteError('cancelled', 'Cancelled by the caller');
    this.#causes.set(sessionId, context);
    try {
      const launch = { sessionId, workspaceId: record.workspaceId, cwd: record.cwd };
      const aborted = abortOf(context);
      const acquiring = this.#startSlots.acquire();
      const slot = await Promise.race([acquiring, aborted.promise]);
      if (slot === 'aborted') {
        aborted.dispose();
        // The turn still comes; hand it on at once.
        void acquiring.then((release) => release());
        throw new RemoteError('cancelled', 'Cancelled by the caller before the session process started');
      }
      const starting = this.#processes.start(launch, context.telemetryContext);
      void starting.finally(slot);
      const started = await Promise.race([starting, aborted.promise]);
      aborted.dispose();
      if (started === 'aborted') {
        await this.#processes.stop(sessionId);
        throw new RemoteError('cancelled', 'Cancelled by the caller; the session process was stopped');
      }
      if (started.isErr()) throw new RemoteError('start_failed', started.error.message);
      await this.settled(sessionId);
      return (await this.#repo.get(sessionId)) ?? record;
    } finally {
      if (this.#causes.get(sessionId) === context) this.#causes.delete(sessionId);
    }
  }

  async stop(sessionId: string, context: Context): Promise<void> {
    this.#causes.set(sessionId, context);
    try {
      await this.#processes.stop(sessionId);
      await this.settled(sessionId);
      if (this.#processes.status(sessionId) === 'closed') await this.#stopElsewhere(sessionId);
    } finally {
      if (this.#causes.get(sessionId) === context) this.#causes.delete(sessionId);
    }
  }

  /**
   * A session this replica does not run may run through another one sharing the store (its record says so): that
   * replica is asked (`requestStop`, heard as `stop_requested`), and this one waits until it hears the record closed
   * or removed, or `stopElsewhereMs` passes.
   */
  async #stopElsewhere(sessionId: string): Promise<void> {
    const shared = this.#repo.shared;
    if (shared === undefined) return;
    const stored = await this.#repo.get(sessionId).catch(() => undefined);
    if (stored === undefined || stored.status === 'closed') return;
    let done: () => void = () => undefined;
    const closed = new Promise<void>((resolve) => (done = resolve));
    const waiters = this.#closedWaiters.get(sessionId) ?? new Set();
    this.#closedWaiters.set(sessionId, waiters.add(done));
    const timer = setTimeout(done, this.#stopElsewhereMs);
    try {
      const asked = await shared.requestStop(sessionId);
      if (asked.isOk()) await closed;
    } finally {
      clearTimeout(timer);
      waiters.delete(done);
      if (waiters.size === 0) this.#closedWaiters.delete(sessionId);
    }
  }

  /** Stops following the process manager once every status change seen so far is written. */
  async close(): Promise<void> {
    this.#stopWatching();
    this.#stopHearing();
    this.#changeListeners.clear();
    this.#idleStops.close();
    await Promise.all([...this.#writes.values()]);
    this.#listeners.clear();
  }

  /** A store change, read back in the fleet's scope (the announcement carries ids only) and passed on. */
  #heard(change: SessionRecordChange): void {
    this.#changesRead = this.#changesRead.then(async () => {
      if (change.kind === 'stop_requested') {
        // Another replica was asked to stop it: stopped here if it runs here (not awaited: changes keep flowing).
        if (this.#processes.status(change.sessionId) !== 'closed')
          void this.stop(change.sessionId, BACKGROUND_CONTEXT).catch(() => undefined);
        return;
      }
      let passed: FleetRecordChange | undefined;
      if (change.kind === 'resync') passed = change;
      else if (change.kind === 'removed')
        passed = { kind: 'removed', sessionId: change.sessionId, workspaceId: change.workspaceId };
      else {
        const record = await this.#repo.get(change.sessionId).catch(() => undefined);
        // Gone again already: its removal is announced next.
        passed = record === undefined ? undefined : { kind: 'changed', record };
      }
      if (passed === undefined) return;
      for (const listener of [...this.#changeListeners])
        runListener(() => listener(passed, BACKGROUND_CONTEXT), 'A fleet record listener threw');
      // After the listeners (the directory lists it closed by now): a stop waiting on another replica is done.
      const ended = passed.kind === 'removed' || (passed.kind === 'changed' && passed.record.status === 'closed');
      const sessionId =
        passed.kind === 'removed' ? passed.sessionId : passed.kind === 'changed' ? passed.record.sessionId : '';
      if (ended) for (const done of [...(this.#closedWaiters.get(sessionId) ?? [])]) done();
    });
  }

  #listen(listener: StatusListener): () => void {
    const entry: StatusListener = (record, context) => listener(record, context);
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  #record(change: StatusChange): void {
    this.#idleStops.status(change.sessionId, change.status);
    const cause = this.#causes.get(change.sessionId) ?? BACKGROUND_CONTEXT;
    const previous = this.#writes.get(change.sessionId) ?? Promise.resolve();
    const write = previous.then(async () => {
      const written = await this.#repo.setStatus(change.sessionId, change.status);
      // A record removed meanwhile has nothing to update; its removal was announced on its own.
      if (written.isErr()) return;
      for (const listener of [...this.#listeners])
        runListener(() => listener(written.value, cause), 'A fleet status listener threw');
    });
    this.#writes.set(change.sessionId, write);
    void write.finally(() => {
      if (this.#writes.get(change.sessionId) === write) this.#writes.delete(change.sessionId);
    });
  }
}

function unwrap<T>(result: Result<T, SessionRepoError>): T {
  if (result.isOk()) return result.value;
  const { code, message } = result.error;
  throw new RemoteError(REPO_CODES[code], message);
}

/** The stable codes a facet's callers see for the repository's failures. */
const REPO_CODES: Record<SessionRepoError['code'], string> = {
  invalid: 'invalid_argument',
  not_found: 'unknown_session',
  duplicate: 'duplicate_session',
  conflict: 'conflict',
  storage: 'internal',
};

/** A counting semaphore: `acquire` resolves with the release once fewer than `limit` holders remain. */
class StartSlots {
  readonly #limit: number;
  #held = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(limit: number) {
    this.#limit = Math.max(1, limit);
  }

  acquire(): Promise<() => void> {
    return new Promise((resolve) => {
      const grant = () => {
        this.#held += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.#held -= 1;
          this.#waiting.shift()?.();
        });
      };
      if (this.#held < this.#limit) grant();
      else this.#waiting.push(grant);
    });
  }
}

/** A promise that settles with 'aborted' when the call's signal aborts; never, without a signal. */
function abortOf(context: Context): { promise: Promise<'aborted'>; dispose(): void } {
  const signal = context.abortSignal;
  if (signal === undefined) return { promise: new Promise(() => undefined), dispose: () => undefined };
  let onAbort: () => void = () => undefined;
  const promise = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}
