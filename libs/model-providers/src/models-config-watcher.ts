import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { err, type Result } from 'neverthrow';
import type { ConfigError } from './config-error';
import { loadModelsConfig, type LoadModelsConfigOptions } from './models-config-file';
import type { ModelsConfig } from './models-config';

export interface WatchModelsConfigOptions extends LoadModelsConfigOptions {
  /** Quiet time after the last change before reloading; editors save in several steps. */
  readonly debounceMs?: number;
}

/**
 * Calls back with the reloaded config each time models.json changes, until `signal` aborts. The directory is
 * watched, not the file: editors often save by writing a temporary file and renaming it over the original,
 * which ends a watch on the old file. A reload equal to the last one delivered is not delivered again. A broken
 * file yields its err result: the caller keeps its last good catalogue and shows the warning. Load once before
 * watching; the watcher reports changes only.
 */
export function watchModelsConfig(
  path: string,
  onChange: (result: Result<ModelsConfig, ConfigError>) => void,
  signal: AbortSignal,
  options: WatchModelsConfigOptions = {},
): void {
  if (signal.aborted) return;
  const file = resolve(path);
  const directory = dirname(file);
  const fileName = basename(file);
  const debounceMs = options.debounceMs ?? 50;
  let timer: NodeJS.Timeout | undefined;
  let generation = 0;
  let lastDelivered: string | undefined;

  const reload = async (): Promise<void> => {
    const current = ++generation;
    const result = await loadModelsConfig(file, options);
    // A newer change started its own reload; only the latest result describes the file.
    if (signal.aborted || current !== generation) return;
    const fingerprint = JSON.stringify(result.isOk() ? { ok: result.value } : { err: result.error });
    if (fingerprint === lastDelivered) return;
    lastDelivered = fingerprint;
    onChange(result);
  };

  let watcher: FSWatcher;
  try {
    watcher = watch(directory, { signal }, (_event, changed) => {
      // Some platforms do not report the name; then any change in the directory may be ours.
      if (changed !== null && changed !== fileName) return;
      clearTimeout(timer);
      timer = setTimeout(() => void reload(), debounceMs);
    });
  } catch (thrown) {
    queueMicrotask(() => onChange(unwatchable(directory, thrown)));
    return;
  }
  watcher.on('error', (thrown) => {
    if (signal.aborted) return;
    watcher.close();
    onChange(unwatchable(directory, thrown));
  });
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
}

function unwatchable(directory: string, thrown: unknown): Result<never, ConfigError> {
  const reason = thrown instanceof Error ? thrown.message : String(thrown);
  return err({
    code: 'unwatchable',
    file: directory,
    issues: [],
    message: `models.json changes in ${directory} cannot be watched (${reason}); restart to apply later edits`,
  });
}
