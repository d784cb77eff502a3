import { sep } from 'node:path';
import type { DirectoryWatch, WatchFunction } from './watch-function';

export interface DirectoryWatchSetOptions {
  readonly watch: WatchFunction;
  /** An entry of `directory` changed: `name` is the entry (null when the platform does not say). */
  readonly onEvent: (directory: string, eventType: string, name: string | null) => void;
  /** A watch failed for another reason than its directory being gone: watching cannot be trusted. */
  readonly onFailure: (error: unknown) => void;
}

/**
 * One non-recursive `fs.watch` per directory (on Linux, one inotify watch each), reconciled against a list:
 * what is no longer listed is closed, what is new is opened. A directory that vanished in between is skipped.
 */
export class DirectoryWatchSet {
  private readonly watches = new Map<string, DirectoryWatch>();
  private closed = false;

  constructor(private readonly options: DirectoryWatchSetOptions) {}

  get size(): number {
    return this.watches.size;
  }

  has(directory: string): boolean {
    return this.watches.has(directory);
  }

  /** Watches exactly `directories`. Returns false (and has closed everything) when a watch could not start. */
  reconcile(directories: readonly string[]): boolean {
    if (this.closed) return true;
    const wanted = new Set(directories);
    for (const [directory, watch] of this.watches) {
      if (wanted.has(directory)) continue;
      watch.close();
      this.watches.delete(directory);
    }
    for (const directory of wanted) {
      if (this.watches.has(directory)) continue;
      try {
        const watch = this.options.watch(directory, { recursive: false }, (eventType, name) => {
          if (!this.closed) this.options.onEvent(directory, eventType, name);
        });
        watch.on('error', (error) => this.failed(directory, error));
        this.watches.set(directory, watch);
      } catch (error) {
        if (isGone(error)) continue;
        this.close();
        return false;
      }
    }
    return true;
  }

  /** Stops watching `directory` and everything under it (it was deleted). */
  remove(directory: string): void {
    for (const [watched, watch] of this.watches) {
      if (watched !== directory && !watched.startsWith(directory + sep)) continue;
      watch.close();
      this.watches.delete(watched);
    }
  }

  close(): void {
    this.closed = true;
    for (const watch of this.watches.values()) watch.close();
    this.watches.clear();
  }

  private failed(directory: string, error: unknown): void {
    if (this.closed) return;
    if (isGone(error)) return this.remove(directory);
    this.close();
    this.options.onFailure(error);
  }
}

function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
