import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ContextModule from '../src/index';

type ContextLibrary = typeof ContextModule;

const ENTRY = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'index.ts');

/** Bundles the library into a file of its own, as a plugin that bundles its dependencies would carry it. */
async function loadCopy(directory: string, name: string): Promise<ContextLibrary> {
  const outfile = join(directory, `${name}.mjs`);
  await build({ entryPoints: [ENTRY], outfile, bundle: true, format: 'esm', platform: 'node', logLevel: 'silent' });
  return (await import(pathToFileURL(outfile).href)) as ContextLibrary;
}

describe('two bundled copies of the library in one process', () => {
  let directory: string;
  let host: ContextLibrary;
  let plugin: ContextLibrary;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-context-copies-'));
    host = await loadCopy(directory, 'host');
    plugin = await loadCopy(directory, 'plugin');
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('are really two copies', () => {
    expect(plugin.withContextValue).not.toBe(host.withContextValue);
    expect(plugin.BACKGROUND_CONTEXT).not.toBe(host.BACKGROUND_CONTEXT);
  });

  it('accept each other’s contexts', () => {
    expect(plugin.isContext(host.BACKGROUND_CONTEXT)).toBe(true);
    expect(host.isContext(plugin.withAbortSignal(new AbortController().signal, host.BACKGROUND_CONTEXT))).toBe(true);
  });

  it('read values set through a shared key by the other copy, and keep the chain when deriving', () => {
    const hostKey = host.defineSharedContextKey<string | undefined>('test.copies.client-id', undefined);
    const pluginKey = plugin.defineSharedContextKey<string | undefined>('test.copies.client-id', undefined);
    const fromHost = host.withContextValue(hostKey, 'client-7', host.BACKGROUND_CONTEXT);
    const derived = plugin.withAbortSignal(new AbortController().signal, fromHost);
    expect(derived.value(pluginKey)).toBe('client-7');
    expect(plugin.withContextValue(pluginKey, 'client-8', fromHost).value(hostKey)).toBe('client-8');
  });

  it('keep private keys private across copies', () => {
    const hostKey = host.createContextKey('test.copies.private', 'default');
    const pluginKey = plugin.createContextKey('test.copies.private', 'default');
    expect(host.withContextValue(hostKey, 'secret', host.BACKGROUND_CONTEXT).value(pluginKey)).toBe('default');
  });

  it('both reject a look-alike decoded from JSON', () => {
    const context = host.withContextValue(host.createContextKey('test.copies.json', 0), 1, host.BACKGROUND_CONTEXT);
    const decoded: unknown = JSON.parse(JSON.stringify(context));
    expect(host.isContext(decoded)).toBe(false);
    expect(plugin.isContext(decoded)).toBe(false);
  });
});
