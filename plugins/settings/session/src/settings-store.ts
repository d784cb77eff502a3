import type { Context } from '@pi/context';
import {
  checkJson,
  clipForError,
  detachJson,
  jsonEquals,
  quoteForError,
  type JsonObject,
  type JsonValue,
} from '@pi/remote';
import {
  SETTINGS_KEY_PATTERN,
  SettingsStoreError,
  type SettingsLayer,
  type SettingsSnapshot,
  type SettingsStore,
} from '@pi/settings';
import { deepMerge, readPath, writePath } from './json-object';
import { loadSettingsLayer, readSettingsFileForWrite } from './settings-file';
import { serialQueue, writeFileAtomic } from '@pi/atomic-file';

export interface SettingsFiles {
  /** `<configDir>/settings.json`: the user's layer, the one `setUser` writes. */
  readonly user: string;
  /** `<cwd>/.pi/settings.json`: the project's layer, read only; it wins over the user's. */
  readonly project: string;
}

const SETTINGS_FILE_MODE = 0o644;

/**
 * The layered settings of one session: defaults, then the user's file, then the project's. The files are read
 * before this resolves, so `get` is synchronous from the start. Writes and reloads run one at a time; each
 * reload that changes the merged snapshot tells the listeners, under the context that caused it.
 */
export async function openSettingsStore(
  defaults: JsonObject,
  files: SettingsFiles,
  context: Context,
): Promise<SettingsStore> {
  const serial = serialQueue();
  const listeners = new Set<(snapshot: SettingsSnapshot, context: Context) => void>();
  let current: SettingsSnapshot = { values: detachJson(defaults) as JsonObject, warnings: [] };
  let layers: ReadonlyArray<readonly [SettingsLayer, JsonObject]> = [['defaults', defaults]];

  const load = async (loadContext: Context) => {
    const [user, project] = await Promise.all([
      loadSettingsLayer(files.user, 'user'),
      loadSettingsLayer(files.project, 'project'),
    ]);
    const next: SettingsSnapshot = {
      values: deepMerge(defaults, user.values, project.values),
      warnings: [user.warning, project.warning].filter((warning) => warning !== null),
    };
    layers = [
      ['defaults', defaults],
      ['user', user.values],
      ['project', project.values],
    ];
    if (jsonEquals(next as unknown as JsonValue, current as unknown as JsonValue)) return;
    current = next;
    for (const listener of [...listeners]) {
      try {
        listener(detached(current), loadContext);
      } catch {
        // A listener's failure is its own; the snapshot changed for everyone else.
      }
    }
  };

  await load(context);

  return {
    get(key) {
      if (!SETTINGS_KEY_PATTERN.test(key)) return undefined;
      const value = readPath(current.values, key);
      return value === undefined ? undefined : detachJson(value);
    },
    snapshot: () => detached(current),
    sourceOf(key) {
      if (!SETTINGS_KEY_PATTERN.test(key)) return undefined;
      return layers.findLast(([, values]) => readPath(values, key) !== undefined)?.[0];
    },
    setUser: (key, value, writeContext) =>
      serial(async () => {
        if (!SETTINGS_KEY_PATTERN.test(key))
          throw new SettingsStoreError(
            'invalid_key',
            `${quoteForError(key)} is not a settings key (dotted identifiers)`,
          );
        const json = checkJson(value);
        if (json.isErr())
          throw new SettingsStoreError(
            'invalid_value',
            `A setting must be strict JSON: ${json.error.kind} at ${clipForError(json.error.path, 160)}`,
          );
        writeContext.abortSignal?.throwIfAborted();
        const next = writePath(await readSettingsFileForWrite(files.user), key, json.value);
        try {
          await writeFileAtomic(files.user, `${JSON.stringify(next, null, 2)}\n`, { fileMode: SETTINGS_FILE_MODE });
        } catch {
          throw new SettingsStoreError('unwritable', 'The user settings.json cannot be written');
        }
        await load(writeContext);
      }),
    reload: (reloadContext) => serial(() => load(reloadContext)),
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

function detached(snapshot: SettingsSnapshot): SettingsSnapshot {
  return detachJson(snapshot as unknown as JsonValue) as unknown as SettingsSnapshot;
}
