import type { Context } from '@pi/context';
import type { WritableSettingLayer } from '@pi/plugin-api';
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
  type SettingsWarning,
} from '@pi/settings';
import { deepMerge, readPath, removePath, writePath } from './json-object';
import { loadSettingsLayer, readSettingsFileForWrite, type FileLayer } from './settings-file';
import { serialQueue, writeFileAtomic } from '@pi/atomic-file';

export interface SettingsFiles {
  /** `<configDir>/settings.json`: the user's layer. */
  readonly user: string;
  /** `<cwd>/.pi/settings.json`: the project's layer; it wins over the user's. */
  readonly project: string;
  /** Where the session layer is kept (beside the session file), so it outlives the process; absent: memory only. */
  readonly session?: string;
}

const SETTINGS_FILE_MODE = 0o644;
const SETTINGS_DIRECTORY_MODE = 0o755;
/** The session layer sits beside the session file, private as it is. */
const SESSION_FILE_MODE = 0o600;

/**
 * The layered settings of one session: defaults, the user's file, the project's file, then the session's own
 * values (kept beside the session file when `files.session` is given). The files are read before this resolves, so `get` is synchronous from the start. Writes and
 * reloads run one at a time; each one that changes the merged snapshot tells the listeners, under the context
 * that caused it.
 */
export async function openSettingsStore(
  defaults: JsonObject,
  files: SettingsFiles,
  context: Context,
): Promise<SettingsStore> {
  const serial = serialQueue();
  const listeners = new Set<(snapshot: SettingsSnapshot, context: Context) => void>();
  let current: SettingsSnapshot = { values: detachJson(defaults) as JsonObject, warnings: [] };
  const layers: Record<SettingsLayer, JsonObject> = { defaults, user: {}, project: {}, session: {} };
  let fileWarnings: SettingsWarning[] = [];

  const publish = (changeContext: Context) => {
    const next: SettingsSnapshot = {
      values: deepMerge(layers.defaults, layers.user, layers.project, layers.session),
      warnings: fileWarnings,
    };
    if (jsonEquals(next as unknown as JsonValue, current as unknown as JsonValue)) return;
    current = next;
    for (const listener of [...listeners]) {
      try {
        listener(detached(current), changeContext);
      } catch {
        // A listener's failure is its own; the snapshot changed for everyone else.
      }
    }
  };

  const load = async (loadContext: Context) => {
    const [user, project] = await Promise.all([
      loadSettingsLayer(files.user, 'user'),
      loadSettingsLayer(files.project, 'project'),
    ]);
    layers.user = user.values;
    layers.project = project.values;
    fileWarnings = [user.warning, project.warning].filter((warning) => warning !== null);
    publish(loadContext);
  };

  const writeFile = async (layer: FileLayer, key: string, value: JsonValue | undefined) => {
    const path = files[layer];
    const before = await readSettingsFileForWrite(path, layer);
    const next = value === undefined ? removePath(before, key) : writePath(before, key, value);
    try {
      await writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`, {
        fileMode: SETTINGS_FILE_MODE,
        directoryMode: SETTINGS_DIRECTORY_MODE,
      });
    } catch {
      throw new SettingsStoreError('unwritable', `The ${layer} settings.json cannot be written`);
    }
  };

  const setLayer = (layer: WritableSettingLayer, key: string, value: JsonValue | undefined, writeContext: Context) =>
    serial(async () => {
      const checked = checkWrite(key, value);
      writeContext.abortSignal?.throwIfAborted();
      if (layer === 'session') {
        const next = checked === undefined ? removePath(layers.session, key) : writePath(layers.session, key, checked);
        if (files.session !== undefined) await writeSessionLayer(files.session, next);
        layers.session = next;
        publish(writeContext);
        return;
      }
      await writeFile(layer, key, checked);
      await load(writeContext);
    });

  if (files.session !== undefined) layers.session = await readSessionLayer(files.session);
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
      const order: SettingsLayer[] = ['defaults', 'user', 'project', 'session'];
      return order.findLast((layer) => readPath(layers[layer], key) !== undefined);
    },
    layerValue(layer, key) {
      if (!SETTINGS_KEY_PATTERN.test(key)) return undefined;
      const value = readPath(layers[layer], key);
      return value === undefined ? undefined : detachJson(value);
    },
    setUser: (key, value, writeContext) => setLayer('user', key, value, writeContext),
    setLayer,
    reload: (reloadContext) => serial(() => load(reloadContext)),
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The value to write, checked: a dotted key, and strict JSON (or undefined: remove the key). */
function checkWrite(key: string, value: JsonValue | undefined): JsonValue | undefined {
  if (!SETTINGS_KEY_PATTERN.test(key))
    throw new SettingsStoreError('invalid_key', `${quoteForError(key)} is not a settings key (dotted identifiers)`);
  if (value === undefined) return undefined;
  const json = checkJson(value);
  if (json.isErr())
    throw new SettingsStoreError(
      'invalid_value',
      `A setting must be strict JSON: ${json.error.kind} at ${clipForError(json.error.path, 160)}`,
    );
  return json.value;
}

/** The session layer as the last run left it; a missing or unreadable file is an empty layer (it is ours alone). */
async function readSessionLayer(path: string): Promise<JsonObject> {
  const loaded = await loadSettingsLayer(path, 'user');
  return loaded.values;
}

async function writeSessionLayer(path: string, values: JsonObject): Promise<void> {
  try {
    await writeFileAtomic(path, `${JSON.stringify(values, null, 2)}\n`, { fileMode: SESSION_FILE_MODE });
  } catch {
    throw new SettingsStoreError('unwritable', "The session's settings cannot be written");
  }
}

function detached(snapshot: SettingsSnapshot): SettingsSnapshot {
  return detachJson(snapshot as unknown as JsonValue) as unknown as SettingsSnapshot;
}
