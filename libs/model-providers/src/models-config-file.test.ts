import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadModelsConfig } from './models-config-file';
import { EMPTY_MODELS_CONFIG } from './models-config';
import { MAX_MODELS_JSON_BYTES, MAX_MODELS_JSON_MODELS, MODELS_PER_STEP } from './models-config-limits';

let directory: string;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'models-config-'));
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('loadModelsConfig', () => {
  it('treats a missing file as the empty config', async () => {
    expect((await loadModelsConfig(join(directory, 'models.json')))._unsafeUnwrap()).toBe(EMPTY_MODELS_CONFIG);
  });

  it('reads a valid file', async () => {
    const file = join(directory, 'models.json');
    await writeFile(
      file,
      JSON.stringify({ providers: { local: { baseUrl: 'http://127.0.0.1:8080/v1', models: [{ id: 'm' }] } } }),
    );
    expect((await loadModelsConfig(file))._unsafeUnwrap().providers.map((provider) => provider.id)).toEqual(['local']);
  });

  it('names the file in invalid JSON and invalid config errors', async () => {
    const file = join(directory, 'models.json');
    await writeFile(file, '{ "providers": ');
    expect((await loadModelsConfig(file))._unsafeUnwrapErr()).toMatchObject({
      code: 'invalid_json',
      file,
      message: expect.stringContaining(file),
    });
    await writeFile(file, JSON.stringify({ providers: { local: { baseUrl: 'nope', models: [{ id: 'm' }] } } }));
    expect((await loadModelsConfig(file))._unsafeUnwrapErr()).toMatchObject({
      code: 'invalid_config',
      file,
      message: `models.json ${file}: providers.local.baseUrl: Invalid URL`,
    });
  });

  it('rejects a file whose idle timeout is not a usable number of milliseconds, naming the key', async () => {
    const file = join(directory, 'models.json');
    const local = { baseUrl: 'http://127.0.0.1:8080/v1', idleTimeoutMs: -5, models: [{ id: 'm' }] };
    await writeFile(file, JSON.stringify({ providers: { local } }));
    expect((await loadModelsConfig(file))._unsafeUnwrapErr()).toMatchObject({
      code: 'invalid_config',
      message: `models.json ${file}: providers.local.idleTimeoutMs: must be at least 1 (milliseconds)`,
    });
  });

  it('reports a path that cannot be read as a file', async () => {
    expect((await loadModelsConfig(directory))._unsafeUnwrapErr().code).toBe('unreadable_file');
  });

  it('does not take a file over the size limit, naming its size and the limit', async () => {
    const file = join(directory, 'models.json');
    const model = { id: 'm', name: '' };
    const frame = JSON.stringify({ providers: { local: { baseUrl: 'http://127.0.0.1:8080/v1', models: [model] } } });
    // A valid file, one byte over: only its size is wrong.
    model.name = 'n'.repeat(MAX_MODELS_JSON_BYTES + 1 - frame.length);
    await writeFile(
      file,
      JSON.stringify({ providers: { local: { baseUrl: 'http://127.0.0.1:8080/v1', models: [model] } } }),
    );
    expect((await loadModelsConfig(file))._unsafeUnwrapErr()).toEqual({
      code: 'too_large',
      file,
      issues: [],
      message: `models.json ${file} is ${MAX_MODELS_JSON_BYTES + 1} bytes, over the limit of ${MAX_MODELS_JSON_BYTES}; it was not read`,
      limit: { found: MAX_MODELS_JSON_BYTES + 1, max: MAX_MODELS_JSON_BYTES },
    });
  });

  it('loads a catalogue of the model limit in steps, giving the event loop a turn at least every slice of models', async () => {
    const file = join(directory, 'models.json');
    const models = Array.from({ length: MAX_MODELS_JSON_MODELS }, (_, index) => ({ id: `m-${index}` }));
    await writeFile(file, JSON.stringify({ providers: { local: { baseUrl: 'http://127.0.0.1:8080/v1', models } } }));
    let turns = 0;
    const loaded = await loadModelsConfig(file, { yieldToLoop: async () => void (turns += 1) });
    expect(loaded._unsafeUnwrap().providers[0]?.models).toHaveLength(MAX_MODELS_JSON_MODELS);
    // The read, the parse and the envelope each end with a turn; then one before every slice.
    expect(turns).toBeGreaterThanOrEqual(2 + MAX_MODELS_JSON_MODELS / MODELS_PER_STEP);
  });
});
