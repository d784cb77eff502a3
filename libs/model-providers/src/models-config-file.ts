import { open, type FileHandle } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import type { ConfigError } from './config-error';
import { EMPTY_MODELS_CONFIG, modelsConfigSteps, type ModelsConfig } from './models-config';
import { MAX_MODELS_JSON_BYTES } from './models-config-limits';
import { yieldToLoop, type YieldToLoop } from './yield-to-loop';

export interface LoadModelsConfigOptions {
  /** Awaited between the steps of a load (read, parse, each slice of models); a turn of the event loop by default. */
  readonly yieldToLoop?: YieldToLoop;
}

/**
 * Reads and validates models.json. A missing file is the empty config: the user simply has not written one. A file
 * over MAX_MODELS_JSON_BYTES is not read; the work is done in steps with a turn of the event loop between them, so
 * the host keeps answering while a large catalogue loads.
 */
export async function loadModelsConfig(
  path: string,
  options: LoadModelsConfigOptions = {},
): Promise<Result<ModelsConfig, ConfigError>> {
  const pause = options.yieldToLoop ?? yieldToLoop;
  const read = await readBounded(path);
  if (read.isErr()) return err(read.error);
  if (read.value === null) return ok(EMPTY_MODELS_CONFIG);
  await pause();
  let json: unknown;
  try {
    json = JSON.parse(read.value);
  } catch (thrown) {
    return err({
      code: 'invalid_json',
      file: path,
      issues: [],
      message: `models.json ${path} is not valid JSON: ${describe(thrown)}`,
    });
  }
  const steps = modelsConfigSteps(json);
  for (;;) {
    await pause();
    const step = steps.next();
    if (step.done === true) {
      return step.value.mapErr((error) => ({ ...error, file: path, message: `models.json ${path}: ${error.message}` }));
    }
  }
}

/** The file's text; null when there is no file. Its size is checked before a byte is read. */
async function readBounded(path: string): Promise<Result<string | null, ConfigError>> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (thrown) {
    if ((thrown as NodeJS.ErrnoException).code === 'ENOENT') return ok(null);
    return err(unreadable(path, thrown));
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_MODELS_JSON_BYTES) return err(tooLarge(path, size));
    const bytes = await handle.readFile();
    // It may have grown since its size was read.
    if (bytes.length > MAX_MODELS_JSON_BYTES) return err(tooLarge(path, bytes.length));
    return ok(bytes.toString('utf8'));
  } catch (thrown) {
    return err(unreadable(path, thrown));
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function unreadable(path: string, thrown: unknown): ConfigError {
  return {
    code: 'unreadable_file',
    file: path,
    issues: [],
    message: `models.json ${path} cannot be read: ${describe(thrown)}`,
  };
}

function tooLarge(path: string, size: number): ConfigError {
  return {
    code: 'too_large',
    file: path,
    issues: [],
    message: `models.json ${path} is ${size} bytes, over the limit of ${MAX_MODELS_JSON_BYTES}; it was not read`,
    limit: { found: size, max: MAX_MODELS_JSON_BYTES },
  };
}

function describe(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
