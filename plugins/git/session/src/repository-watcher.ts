import type { RepositoryLocation } from './read-repository';
import { TargetWatch, type TargetWatchOptions, type WatchMode } from './target-watch';

export type WatchTarget =
  | { readonly kind: 'repository'; readonly location: RepositoryLocation }
  /** Outside a repository: the session's directory, to notice a `git init`. */
  | { readonly kind: 'directory'; readonly path: string }
  /** Nothing to watch (git is missing). */
  | { readonly kind: 'none' };

export interface RepositoryWatcherOptions extends TargetWatchOptions {
  readonly onModeChange?: (mode: WatchMode) => void;
}

/**
 * Follows one target at a time: `follow` is called after every check, and a target other than the current
 * one replaces its watches (the repository appeared, vanished or moved). `close` ends the watches and the
 * poll timer for good.
 */
export class RepositoryWatcher {
  private key = JSON.stringify({ kind: 'none' });
  private current: TargetWatch | undefined;
  private currentMode: WatchMode = 'none';
  private closed = false;

  constructor(private readonly options: RepositoryWatcherOptions) {}

  get mode(): WatchMode {
    return this.currentMode;
  }

  async follow(target: WatchTarget): Promise<void> {
    const key = JSON.stringify(target);
    if (this.closed || key === this.key) return;
    this.key = key;
    this.current?.stop();
    this.setMode('none');
    const watch = new TargetWatch(this.options, (mode) => {
      if (watch === this.current) this.setMode(mode);
    });
    this.current = watch;
    if (target.kind === 'directory') watch.watchDirectory(target.path);
    else if (target.kind === 'repository') await watch.watchRepository(target.location);
    // A change made after the check that led here but before the watches were in place would be missed.
    if (watch === this.current && target.kind !== 'none') this.options.changed();
  }

  close(): void {
    this.closed = true;
    this.current?.stop();
    this.current = undefined;
    this.setMode('none');
  }

  private setMode(mode: WatchMode): void {
    if (mode === this.currentMode) return;
    this.currentMode = mode;
    this.options.onModeChange?.(mode);
  }
}
