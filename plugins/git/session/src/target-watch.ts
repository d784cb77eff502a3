import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { DirectoryWatchSet } from './directory-watch-set';
import type { GitCommandSettings } from './git-command';
import type { RepositoryLocation } from './read-repository';
import { listGitDirectories, listWorkingTreeDirectories } from './watched-directories';
import type { DirectoryWatch, WatchFunction } from './watch-function';

/**
 * `recursive`: one recursive `fs.watch` per tree (native on macOS and Windows). `directories`: one watch per
 * directory git sees (Linux, where Node 20 emulates recursion by watching every file, ignored trees included).
 * `poll`: no watching, a check every `pollIntervalMs`.
 */
export type WatchStrategy = 'recursive' | 'directories' | 'poll';

/** How a repository's changes are noticed. `polling` also when watching failed or the tree is too large. */
export type WatchMode = 'none' | 'recursive' | 'directories' | 'polling';

export interface TargetWatchOptions {
  readonly strategy: WatchStrategy;
  readonly watch: WatchFunction;
  readonly git: GitCommandSettings;
  /** The most directories watched one by one; a larger tree is polled (its git directories are still watched). */
  readonly maxDirectories: number;
  readonly pollIntervalMs: number;
  /** Something changed: ask for a check (the caller debounces). */
  readonly changed: () => void;
  /** One check while polling; the next starts `pollIntervalMs` after it finished. */
  readonly poll: () => Promise<void>;
}

/** Git's own writes that never matter by themselves: lock files, objects and logs (a ref or the index moves too). */
export function isGitNoise(pathInGitDirectory: string): boolean {
  const [first] = pathInGitDirectory.split(/[\\/]/);
  return pathInGitDirectory.endsWith('.lock') || first === 'objects' || first === 'logs';
}

/** The path inside the top level's `.git` of a recursive event's name, or null when it is not inside it. */
function inDotGit(name: string): string | null {
  return /^\.git[\\/]/.test(name) ? name.slice(5) : null;
}

/**
 * The watches of one target (a repository, or the directory outside one); `stop` ends them all. When watching
 * fails, it falls back to polling for good: a watch that failed once (no inotify watches left, a file system
 * without events) is not tried again until the target changes.
 */
export class TargetWatch {
  private readonly stops: Array<() => void> = [];
  private stopped = false;
  private polling = false;

  constructor(
    private readonly options: TargetWatchOptions,
    private readonly setMode: (mode: WatchMode) => void,
  ) {}

  stop(): void {
    this.stopped = true;
    this.stopAll();
  }

  /** Outside a repository: the session's directory alone, so a `git init` is noticed. No polling. */
  watchDirectory(path: string): void {
    let dotGitWatched = false;
    const watchOne = (directory: string, listener: (name: string | null) => void) => {
      const watch = this.tryWatch(directory, false, (_eventType, name) => listener(name));
      if (watch === undefined) return false;
      watch.on('error', () => watch.close());
      this.stops.push(() => watch.close());
      return true;
    };
    watchOne(path, (name) => {
      this.options.changed();
      // `git init` writes `.git` in several steps; a check between them sees no repository yet, so its later
      // writes are followed too, until a check finds the repository and the watches are replaced.
      if (name === '.git' && !dotGitWatched) dotGitWatched = watchOne(join(path, '.git'), () => this.options.changed());
    });
  }

  async watchRepository(location: RepositoryLocation): Promise<void> {
    switch (this.options.strategy) {
      case 'poll':
        return this.startPolling();
      case 'recursive':
        return this.watchRecursively(location);
      case 'directories':
        return this.watchDirectories(location);
    }
  }

  private watchRecursively(location: RepositoryLocation): void {
    const gitRoots = [...new Set([location.gitDir, location.commonDir])].filter((root) => {
      const fromTop = relative(location.topLevel, root);
      return fromTop.startsWith('..') || isAbsolute(fromTop);
    });
    const roots = [{ root: location.topLevel, git: false }, ...gitRoots.map((root) => ({ root, git: true }))];
    for (const { root, git } of roots) {
      const watch = this.tryWatch(root, true, (_eventType, name) => {
        const gitPath = name === null ? null : git ? name : inDotGit(name);
        if (gitPath === null || !isGitNoise(gitPath)) this.options.changed();
      });
      if (watch === undefined) return this.fallBack();
      watch.on('error', () => this.fallBack());
      this.stops.push(() => watch.close());
    }
    this.setMode('recursive');
  }

  private async watchDirectories(location: RepositoryLocation): Promise<void> {
    const gitDirectories = new Set<string>();
    const set = new DirectoryWatchSet({
      watch: this.options.watch,
      onEvent: (directory, eventType, name) => {
        if (name !== null && gitDirectories.has(directory) && isGitNoise(name)) return;
        this.options.changed();
        // A new index may track files in directories that were untracked (listed as one) before.
        if (directory === location.gitDir && name === 'index') void resync();
        else if (eventType === 'rename' && name !== null) void inspect(join(directory, name));
      },
      onFailure: () => this.fallBack(),
    });
    this.stops.push(() => set.close());
    let tooLarge = false;
    const sync = async (first: boolean): Promise<void> => {
      const [tree, git] = await Promise.all([
        listWorkingTreeDirectories(this.options.git, location, this.options.maxDirectories),
        listGitDirectories(location, this.options.maxDirectories),
      ]);
      if (this.stopped || this.polling) return;
      if (tree.kind === 'failed') return first ? this.fallBack() : undefined;
      gitDirectories.clear();
      for (const directory of git === 'too_many' ? [location.gitDir, location.commonDir] : git) {
        gitDirectories.add(directory);
      }
      const treeDirectories = tree.kind === 'listed' ? tree.directories : [];
      if (!set.reconcile([...treeDirectories, ...gitDirectories])) return this.fallBack();
      if (tree.kind === 'too_many' && !tooLarge) {
        // Too many directories to watch one by one: the git directories stay watched, the tree is polled.
        tooLarge = true;
        this.stops.push(this.pollTimer());
        this.setMode('polling');
      } else if (!tooLarge) {
        this.setMode('directories');
      }
    };
    const resync = serialized(() => sync(false));
    // A new directory is watched once git lists it; a deleted one is let go at once.
    const inspect = async (path: string): Promise<void> => {
      const isDirectory = await stat(path).then(
        (stats) => stats.isDirectory(),
        () => undefined,
      );
      if (this.stopped) return;
      if (isDirectory === undefined) {
        if (set.has(path)) set.remove(path);
      } else if (isDirectory && !set.has(path)) void resync();
    };
    await sync(true);
  }

  private fallBack(): void {
    if (this.stopped || this.polling) return;
    this.stopAll();
    this.startPolling();
  }

  private startPolling(): void {
    this.polling = true;
    this.stops.push(this.pollTimer());
    this.setMode('polling');
  }

  private pollTimer(): () => void {
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    const next = () => {
      if (stopped) return;
      timer = setTimeout(() => void this.options.poll().finally(next), this.options.pollIntervalMs);
      timer.unref();
    };
    next();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  private tryWatch(path: string, recursive: boolean, listener: (eventType: string, name: string | null) => void) {
    try {
      return this.options.watch(path, { recursive }, (eventType, name) => {
        if (!this.stopped) listener(eventType, name);
      }) satisfies DirectoryWatch;
    } catch {
      return undefined;
    }
  }

  private stopAll(): void {
    for (const stop of this.stops.splice(0)) stop();
  }
}

/** Runs `task` one at a time; a call while it runs asks for exactly one more run after it. */
function serialized(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): Promise<void> => {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = task().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        void run();
      }
    });
    return running;
  };
  return run;
}
