import { watch, type FSWatcher } from 'node:fs';
import { basename } from 'node:path';

/**
 * Calls `changed` (once per burst, after `debounceMs` of quiet) when a watched file of a directory is written,
 * replaced or removed. Directories are watched rather than files, since an atomic write replaces the file; a
 * directory that does not exist yet is not watched (its files are read again on `/settings`). Returns the stopper.
 */
export function watchFiles(
  targets: ReadonlyArray<{ readonly directory: string; readonly files?: readonly string[] }>,
  changed: () => void,
  debounceMs = 50,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  const watchers: FSWatcher[] = [];
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(changed, debounceMs);
    timer.unref?.();
  };
  for (const { directory, files } of targets) {
    let watcher: FSWatcher;
    try {
      watcher = watch(directory, { persistent: false }, (_event, name) => {
        if (files === undefined || name === null || files.includes(basename(String(name)))) schedule();
      });
    } catch {
      continue;
    }
    // A watched directory that goes away ends its watcher; the files are still read on `/settings`.
    watcher.on('error', () => watcher.close());
    watchers.push(watcher);
  }
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
