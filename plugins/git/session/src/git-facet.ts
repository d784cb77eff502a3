import { BACKGROUND_CONTEXT } from '@pi/context';
import { Git, UNCHECKED_GIT_STATUS, type GitEvent, type GitStatus } from '@pi/git';
import type { CodingAgentSessionPluginContext, SessionFacet } from '@pi/plugin-api';
import { RemoteError } from '@pi/remote';
import type { GitCommandSettings } from './git-command';
import { readRepository, type RepositoryReading } from './read-repository';
import { RefreshLoop } from './refresh-loop';
import { RepositoryWatcher, type WatchTarget } from './repository-watcher';
import { changeEvents, nextGitStatus } from './status-projection';
import type { WatchMode, WatchStrategy } from './target-watch';
import { nodeWatch, type WatchFunction } from './watch-function';
import { WorkThatWrites } from './work-that-writes';

export interface GitFacetOptions {
  /** The environment git runs with (its PATH finds git); process.env by default. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The git executable, looked up on that PATH; `git` by default. */
  readonly executable?: string;
  /** The longest one git command may run before it is killed and the check reports an error. */
  readonly timeoutMs?: number;
  /** Quiet time after a file change or a tool run before a check. */
  readonly debounceMs?: number;
  /** The longest a check waits while changes keep coming. */
  readonly maxDelayMs?: number;
  /** Time between the end of one check and the next while polling. */
  readonly pollIntervalMs?: number;
  /** How changes are noticed; `auto` picks `recursive` on macOS and Windows, `directories` elsewhere. */
  readonly watchStrategy?: WatchStrategy | 'auto';
  /** A working tree with more directories is polled (its git directories are still watched). */
  readonly maxWatchedDirectories?: number;
  /** `fs.watch` by default; tests inject failures. */
  readonly watch?: WatchFunction;
  /** Told whenever the way changes are noticed changes (for tests and diagnostics). */
  readonly onWatchModeChange?: (mode: WatchMode) => void;
  /** Told when a check starts, before git runs (for tests and diagnostics). */
  readonly onCheck?: () => void;
}

export const GIT_FACET_DEFAULTS = {
  executable: 'git',
  timeoutMs: 15_000,
  debounceMs: 100,
  maxDelayMs: 1_000,
  pollIntervalMs: 2_000,
  maxWatchedDirectories: 4_096,
} as const;

/** Recursive `fs.watch` is native on macOS (FSEvents) and Windows; elsewhere Node 20 emulates it file by file. */
export function defaultWatchStrategy(platform: NodeJS.Platform = process.platform): WatchStrategy {
  return platform === 'darwin' || platform === 'win32' ? 'recursive' : 'directories';
}

/**
 * The session facet of @pi/git: provides `Git` with the status of the session's working tree, checked at
 * activation, after file changes (watched, debounced), after tool runs and `!` commands (not after a run that only
 * answered: see WorkThatWrites), and on `refresh`.
 */
export function createGitFacet(options: GitFacetOptions = {}): SessionFacet {
  return (context) => setUpGit(context, options);
}

function setUpGit(context: CodingAgentSessionPluginContext, options: GitFacetOptions): void {
  const settings = { ...GIT_FACET_DEFAULTS, ...definedOnly(options) };
  const git: GitCommandSettings = {
    executable: settings.executable,
    cwd: context.paths.cwd,
    env: options.env ?? process.env,
    timeoutMs: settings.timeoutMs,
  };
  const status = context.remoteState<GitStatus>(UNCHECKED_GIT_STATUS);
  const events = context.remoteEvents<GitEvent>();

  const watcher: RepositoryWatcher = new RepositoryWatcher({
    strategy:
      settings.watchStrategy === undefined || settings.watchStrategy === 'auto'
        ? defaultWatchStrategy()
        : settings.watchStrategy,
    watch: options.watch ?? nodeWatch,
    git,
    maxDirectories: settings.maxWatchedDirectories,
    pollIntervalMs: settings.pollIntervalMs,
    changed: () => loop.schedule(),
    poll: () => loop.now(),
    ...(options.onWatchModeChange === undefined ? {} : { onModeChange: options.onWatchModeChange }),
  });
  const loop = new RefreshLoop({
    debounceMs: settings.debounceMs,
    maxDelayMs: settings.maxDelayMs,
    async check(signal) {
      options.onCheck?.();
      const reading = await readRepository(git, signal);
      if (reading.kind === 'aborted' || signal.aborted) return;
      const previous = status.value;
      const next = nextGitStatus(previous, reading);
      // State first, then events: a listener that reads the state on an event sees the new value.
      status.set(next, BACKGROUND_CONTEXT);
      for (const event of changeEvents(previous, next)) events.emit(event, BACKGROUND_CONTEXT);
      const target = watchTarget(reading, context.paths.cwd);
      if (target !== undefined) void watcher.follow(target).catch(() => undefined);
    },
  });

  context.provide(Git, {
    status,
    events,
    async refresh(callContext) {
      await untilAborted(loop.now(), callContext.abortSignal);
    },
  });
  const work = new WorkThatWrites();
  context.on('*', (event) => {
    if (work.heard(event)) loop.schedule();
  });
  context.onActivate(() => void loop.now());
  context.onDispose(() => {
    loop.dispose();
    watcher.close();
  });
}

/** What to watch after a reading; undefined keeps what is watched (a failure says nothing about where). */
function watchTarget(reading: Exclude<RepositoryReading, { kind: 'aborted' }>, cwd: string): WatchTarget | undefined {
  switch (reading.kind) {
    case 'status':
      return { kind: 'repository', location: reading.location };
    case 'failed':
      return reading.location === null ? undefined : { kind: 'repository', location: reading.location };
    case 'not_a_repository':
      return { kind: 'directory', path: cwd };
    case 'git_missing':
      return { kind: 'none' };
  }
}

function untilAborted(work: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return work;
  const cancelled = () => new RemoteError('cancelled', 'The refresh was cancelled');
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise((resolve, reject) => {
    const abort = () => reject(cancelled());
    signal.addEventListener('abort', abort, { once: true });
    void work.then(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    });
  });
}

function definedOnly<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}
