import { readFile } from 'node:fs/promises';
import { ok, type Result } from 'neverthrow';
import { defaultKeymap, keymapFromJson, type Keymap } from '@pi/terminal';

/** The user's keybindings file, if any: action → key or keys. A broken file is an error, not a silent default. */
export async function readKeymap(path: string): Promise<Result<Keymap, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return ok(defaultKeymap);
  }
  return keymapFromJson(text).mapErr((error) => `${path}: ${error.message}`);
}
