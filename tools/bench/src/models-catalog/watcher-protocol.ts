/** What the watchers' process tells the benchmark (over IPC). */
export type WatcherReport =
  | { readonly type: 'ready' }
  /** Watcher `watcher`'s replica changed: the catalogue's size and last name, and the refresh status (with the
   *  models.json warning). */
  | {
      readonly type: 'state';
      readonly watcher: number;
      readonly models: number;
      readonly lastName: string | null;
      readonly refresh: string;
      readonly fileWarning: string | null;
    }
  | { readonly type: 'failed'; readonly message: string };
