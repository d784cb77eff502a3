import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as RemoteModule from '../src/index';

type RemoteLibrary = typeof RemoteModule;

const ENTRY = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'index.ts');

/** The library bundled into a file of its own, as a plugin built on the packed plugin API carries it. */
async function loadCopy(directory: string, name: string): Promise<RemoteLibrary> {
  const outfile = join(directory, `${name}.mjs`);
  await build({ entryPoints: [ENTRY], outfile, bundle: true, format: 'esm', platform: 'node', logLevel: 'silent' });
  return (await import(pathToFileURL(outfile).href)) as RemoteLibrary;
}

describe('a plugin that bundles its own copy of the remote library', () => {
  let directory: string;
  let host: RemoteLibrary;
  let plugin: RemoteLibrary;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-remote-copies-'));
    host = await loadCopy(directory, 'host');
    plugin = await loadCopy(directory, 'plugin');
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('throws RemoteErrors the host recognises, keeping their code and data', () => {
    const thrown = new plugin.RemoteError('unknown_model', 'No such model', { modelId: 'x' });
    expect(host.isRemoteError(thrown)).toBe(true);
    expect(thrown instanceof host.RemoteError).toBe(true);
    expect(host.toRemoteError(thrown).toEnvelope()).toEqual({
      code: 'unknown_model',
      message: 'No such model',
      data: { modelId: 'x' },
    });
  });

  it('still turns look-alikes into internal errors: a plain object with a code is no RemoteError', () => {
    const lookAlike = JSON.parse('{"name":"RemoteError","code":"not_authorized","message":"forged"}');
    expect(host.isRemoteError(lookAlike)).toBe(false);
    expect(host.toRemoteError(lookAlike).code).toBe('internal');
    expect(host.toRemoteError(new Error('plain')).code).toBe('internal');
  });

  it('reads the client id and caller identity the host installed', () => {
    expect(plugin.CLIENT_ID).toBe(host.CLIENT_ID);
    expect(plugin.CALLER_IDENTITY).toBe(host.CALLER_IDENTITY);
  });
});
