import { readFile } from 'node:fs/promises';
import { err, type Result } from 'neverthrow';
import { errorMessage } from './error-message';
import { parseManifest, type PluginManifest } from './manifest';
import type { ManifestError } from './manifest-error';

/** Reads and validates a manifest file; every error value names the file so a user can find it. */
export async function loadManifestFile(path: string): Promise<Result<PluginManifest, ManifestError>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (thrown) {
    return err({
      code: 'unreadable_file',
      file: path,
      message: `cannot read manifest ${path}: ${errorMessage(thrown)}`,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (thrown) {
    return err({
      code: 'invalid_json',
      file: path,
      message: `manifest ${path} is not valid JSON: ${errorMessage(thrown)}`,
    });
  }
  return parseManifest(json).mapErr((error) => ({
    ...error,
    file: path,
    message: `manifest ${path}: ${error.message}`,
  }));
}
