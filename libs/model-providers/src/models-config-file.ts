import { readFile } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import type { ConfigError } from './config-error';
import { EMPTY_MODELS_CONFIG, parseModelsConfig, type ModelsConfig } from './models-config';

/** Reads and validates models.json. A missing file is the empty config: the user simply has not written one. */
export async function loadModelsConfig(path: string): Promise<Result<ModelsConfig, ConfigError>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (thrown) {
    if ((thrown as NodeJS.ErrnoException).code === 'ENOENT') return ok(EMPTY_MODELS_CONFIG);
    return err({
      code: 'unreadable_file',
      file: path,
      issues: [],
      message: `models.json ${path} cannot be read: ${describe(thrown)}`,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (thrown) {
    return err({
      code: 'invalid_json',
      file: path,
      issues: [],
      message: `models.json ${path} is not valid JSON: ${describe(thrown)}`,
    });
  }
  return parseModelsConfig(json).mapErr((error) => ({
    ...error,
    file: path,
    message: `models.json ${path}: ${error.message}`,
  }));
}

function describe(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
