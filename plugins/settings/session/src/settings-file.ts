import { readFile } from 'node:fs/promises';
import { checkJson, type JsonObject } from '@pi/remote';
import { SettingsStoreError, type SettingsWarning } from '@pi/settings';
import { isJsonObject } from './json-object';

export type FileLayer = SettingsWarning['layer'];

export interface LoadedLayer {
  readonly values: JsonObject;
  readonly warning: SettingsWarning | null;
}

/**
 * One settings file as a layer. A missing file is an empty layer; a broken one is an empty layer plus a
 * warning, so the other layers still apply. Warnings name the layer and what is wrong, not the path or the
 * file's content.
 */
/** How a warning names a layer's file: the name the user knows, never the path. */
export function settingsFileName(layer: FileLayer): string {
  return layer === 'user' ? 'the user settings.json' : "the project's .pi/settings.json";
}

export async function loadSettingsLayer(path: string, layer: FileLayer): Promise<LoadedLayer> {
  const read = await readSettingsFile(path, layer);
  return read.isBroken
    ? { values: {}, warning: { layer, message: read.message } }
    : { values: read.values, warning: null };
}

/** A settings file for a read-modify-write: a broken file is refused rather than overwritten. */
export async function readSettingsFileForWrite(path: string, layer: FileLayer): Promise<JsonObject> {
  const read = await readSettingsFile(path, layer);
  if (read.isBroken) throw new SettingsStoreError('unreadable', `${read.message}; fix it before changing settings`);
  return read.values;
}

type FileRead = { isBroken: false; values: JsonObject } | { isBroken: true; message: string };

async function readSettingsFile(path: string, layer: FileLayer): Promise<FileRead> {
  const name = settingsFileName(layer);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { isBroken: false, values: {} };
    return { isBroken: true, message: `${name} cannot be read` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { isBroken: true, message: `${name} is not valid JSON` };
  }
  const checked = checkJson(json);
  if (checked.isErr())
    return {
      isBroken: true,
      message: `${name} has a ${checked.error.kind.replaceAll('_', ' ')} at ${checked.error.path}`,
    };
  if (!isJsonObject(checked.value)) return { isBroken: true, message: `${name} is not a JSON object` };
  return { isBroken: false, values: checked.value };
}
