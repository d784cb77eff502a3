import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Result } from 'neverthrow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigError } from './config-error';
import type { ModelsConfig } from './models-config';
import { watchModelsConfig } from './models-config-watcher';

type ConfigResult = Result<ModelsConfig, ConfigError>;

let directory: string;
let controller: AbortController;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'models-watch-'));
  controller = new AbortController();
});

afterEach(async () => {
  controller.abort();
  await rm(directory, { recursive: true, force: true });
});

/** Collects callbacks; `next()` resolves with the next one (or one already waiting). */
function recorder() {
  const waiting: ConfigResult[] = [];
  let wake: (() => void) | undefined;
  return {
    onChange(result: ConfigResult): void {
      waiting.push(result);
      wake?.();
    },
    async next(): Promise<ConfigResult> {
      while (waiting.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      return waiting.shift() as ConfigResult;
    },
  };
}

function configWith(modelId: string): string {
  return JSON.stringify({ providers: { local: { baseUrl: 'http://127.0.0.1:8080/v1', models: [{ id: modelId }] } } });
}

function modelIds(result: ConfigResult): string[] {
  return result._unsafeUnwrap().providers.flatMap((provider) => provider.models.map((model) => model.modelId));
}

describe('watchModelsConfig', () => {
  it(
    'delivers the new config when the file is written, broken, and replaced by rename',
    { timeout: 15_000 },
    async () => {
      const file = join(directory, 'models.json');
      const changes = recorder();
      watchModelsConfig(file, changes.onChange, controller.signal, { debounceMs: 20 });

      await writeFile(file, configWith('first'));
      expect(modelIds(await changes.next())).toEqual(['first']);

      await writeFile(file, '{ "providers": {');
      expect((await changes.next())._unsafeUnwrapErr().code).toBe('invalid_json');

      // The way editors save: write a temporary file, then rename it over the original.
      await writeFile(join(directory, 'models.json.tmp'), configWith('second'));
      await rename(join(directory, 'models.json.tmp'), file);
      expect(modelIds(await changes.next())).toEqual(['second']);
    },
  );

  it('delivers the empty config when the file is deleted', { timeout: 15_000 }, async () => {
    const file = join(directory, 'models.json');
    await writeFile(file, configWith('only'));
    const changes = recorder();
    watchModelsConfig(file, changes.onChange, controller.signal, { debounceMs: 20 });
    await rm(file);
    expect((await changes.next())._unsafeUnwrap().providers).toEqual([]);
  });

  it('ignores other files in the directory', { timeout: 15_000 }, async () => {
    const file = join(directory, 'models.json');
    const changes = recorder();
    watchModelsConfig(file, changes.onChange, controller.signal, { debounceMs: 20 });
    await writeFile(join(directory, 'settings.json'), '{}');
    await writeFile(file, configWith('mine'));
    // The first delivery is the models.json write: the settings.json write caused none.
    expect(modelIds(await changes.next())).toEqual(['mine']);
  });

  it('reports an err result when the directory cannot be watched', async () => {
    const changes = recorder();
    watchModelsConfig(join(directory, 'missing', 'models.json'), changes.onChange, controller.signal);
    expect((await changes.next())._unsafeUnwrapErr().code).toBe('unwatchable');
  });
});
