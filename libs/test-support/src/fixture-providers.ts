import { THINKING_LEVELS } from '@pi/agent-contract';
import type { Context } from '@pi/context';
import {
  CALLER_IDENTITY,
  CLIENT_ID,
  RemoteError,
  createRemoteEvents,
  createRemoteState,
  type AuthoritativeEvents,
  type AuthoritativeState,
} from '@pi/remote';
import type {
  CatalogEvent,
  CatalogService,
  CatalogState,
  IndexJob,
  IndexProgress,
  IndexService,
  ProbeService,
} from './fixture-services';

export const KNOWN_MODELS = [
  { provider: 'local', modelId: 'small' },
  { provider: 'local', modelId: 'large' },
];

/** The catalog as its providing host holds it: writable cells, so tests can change state and emit events. */
export type HostCatalog = CatalogService & {
  readonly state: AuthoritativeState<CatalogState>;
  readonly events: AuthoritativeEvents<CatalogEvent>;
  refreshes: number;
};

export function createCatalog(): HostCatalog {
  const state = createRemoteState<CatalogState>({ selected: null, thinkingLevel: 'high', refresh: 'idle' });
  const events = createRemoteEvents<CatalogEvent>();
  const catalog = {
    state,
    events,
    refreshes: 0,
    async select(model: CatalogState['selected'] & object, context: Context) {
      context.abortSignal?.throwIfAborted();
      if (!KNOWN_MODELS.some((known) => known.provider === model.provider && known.modelId === model.modelId)) {
        throw new RemoteError('unknown_model', `Unknown model ${model.provider}/${model.modelId}`);
      }
      state.set({ ...state.value, selected: model }, context);
      events.emit({ type: 'selected', model }, context);
    },
    async cycleThinking(context: Context) {
      const next =
        THINKING_LEVELS[(THINKING_LEVELS.indexOf(state.value.thinkingLevel) + 1) % THINKING_LEVELS.length] ?? 'off';
      state.set({ ...state.value, thinkingLevel: next }, context);
    },
    async refresh(context: Context) {
      catalog.refreshes += 1;
      state.set({ ...state.value, refresh: 'refreshing' }, context);
      state.set({ ...state.value, refresh: 'done' }, context);
      events.emit({ type: 'refreshed', count: KNOWN_MODELS.length }, context);
      return KNOWN_MODELS.length;
    },
  };
  return catalog;
}

/** What a probe saw: calls that started blocking and how each one ended. */
export interface ProbeLog {
  readonly started: string[];
  readonly aborted: string[];
  readonly worked: string[];
}

export function createProbe(): ProbeService & { log: ProbeLog } {
  const log: ProbeLog = { started: [], aborted: [], worked: [] };
  return {
    log,
    async echo(value) {
      log.worked.push('echo');
      return value;
    },
    async nothing() {
      log.worked.push('nothing');
    },
    async fail(code, message) {
      throw new RemoteError(code, message);
    },
    async crash(message) {
      throw new Error(message);
    },
    block(label, context) {
      log.started.push(label);
      return new Promise((resolve) => {
        context.abortSignal?.addEventListener('abort', () => {
          log.aborted.push(label);
          resolve(`aborted ${label}`);
        });
      });
    },
    async whoAmI(context) {
      return {
        clientId: context.value(CLIENT_ID) ?? null,
        principal: context.value(CALLER_IDENTITY)?.principal ?? null,
      };
    },
    async badResult() {
      return 'not a number' as unknown as number;
    },
  };
}

/** The job fixture: a service-owned task with its own controller, which `wait` aborts never touch. */
export function createIndex(): IndexService & { jobs: Array<IndexJob & { settled: Promise<IndexProgress> }> } {
  const jobs: Array<IndexJob & { settled: Promise<IndexProgress> }> = [];
  return {
    jobs,
    async start() {
      const progress = createRemoteState<IndexProgress>({ status: 'running', indexed: 0 });
      let finish: (value: IndexProgress) => void = () => undefined;
      const settled = new Promise<IndexProgress>((resolve) => (finish = resolve));
      const job = {
        progress,
        settled,
        wait(context: Context) {
          if (progress.value.status !== 'running') return Promise.resolve(progress.value);
          return new Promise<IndexProgress>((resolve, reject) => {
            void settled.then(resolve);
            context.abortSignal?.addEventListener('abort', () =>
              reject(new RemoteError('cancelled', 'The wait was cancelled')),
            );
          });
        },
        async cancel(context: Context) {
          if (progress.value.status !== 'running') return;
          progress.set({ ...progress.value, status: 'cancelled' }, context);
          finish(progress.value);
        },
        async advance(count: number, context: Context) {
          if (progress.value.status !== 'running') return;
          const indexed = progress.value.indexed + count;
          const next: IndexProgress = { status: indexed >= 100 ? 'done' : 'running', indexed: Math.min(indexed, 100) };
          progress.set(next, context);
          if (next.status === 'done') finish(progress.value);
        },
      };
      jobs.push(job);
      return job;
    },
  };
}
