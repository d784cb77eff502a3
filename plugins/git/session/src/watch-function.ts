import { watch } from 'node:fs';

/** What the watcher needs of `fs.watch`'s result. */
export interface DirectoryWatch {
  close(): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export type WatchListener = (eventType: string, filename: string | null) => void;

/** `fs.watch` as the watcher calls it; injectable so tests can make watching fail. */
export type WatchFunction = (
  path: string,
  options: { readonly recursive: boolean },
  listener: WatchListener,
) => DirectoryWatch;

/** `fs.watch`, never keeping the process alive by itself, names as UTF-8 strings. */
export const nodeWatch: WatchFunction = (path, options, listener) =>
  watch(path, { recursive: options.recursive, persistent: false, encoding: 'utf8' }, (eventType, filename) =>
    listener(eventType, filename),
  );
