import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as ContextModule from '../src/index';
import type * as OlderContextModule from './v1/index';

type ContextLibrary = typeof ContextModule;

type OlderContextLibrary = typeof OlderContextModule;

const HERE = dirname(fileURLToPath(import.meta.url));
const ENTRY = resolve(HERE, '..', 'src', 'index.ts');
/** The context format before the brand became a class field (test/v1/context.ts). */
const OLDER_ENTRY = resolve(HERE, 'v1', 'index.ts');

/** Bundles the library into a file of its own, as a plugin that bundles its dependencies would carry it. */
async function loadCopy(directory: string, name: string, entry = ENTRY): Promise<ContextLibrary> {
  const outfile = join(directory, `${name}.mjs`);
  await build({ entryPoints: [entry], outfile, bundle: true, format: 'esm', platform: 'node', logLevel: 'silent' });
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

describe('a copy of the older format (brand not enumerable) and this one in one process', () => {
  let directory: string;
  let host: ContextLibrary;
  let older: OlderContextLibrary;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-context-formats-'));
    host = await loadCopy(directory, 'host');
    older = (await loadCopy(directory, 'older', OLDER_ENTRY)) as OlderContextLibrary;
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('differ in how the brand is defined, not in what each checks', () => {
    const brand = Symbol.for('@pi/context.values.v1');
    expect(Object.getOwnPropertyDescriptor(host.BACKGROUND_CONTEXT, brand)?.enumerable).toBe(true);
    expect(Object.getOwnPropertyDescriptor(older.BACKGROUND_CONTEXT, brand)?.enumerable).toBe(false);
  });

  it('accept each other’s contexts, a server’s per-call context among them', () => {
    const perCall = host.withDeferredAbort(new host.DeferredAbort(), host.BACKGROUND_CONTEXT);
    expect(older.isContext(perCall)).toBe(true);
    expect(older.isContext(host.withContextValue(host.createContextKey('k', 0), 1, host.BACKGROUND_CONTEXT))).toBe(
      true,
    );
    expect(host.isContext(older.BACKGROUND_CONTEXT)).toBe(true);
    expect(host.isContext(older.withAbortSignal(new AbortController().signal, perCall))).toBe(true);
  });

  it('read values set through a shared key by the other, and keep the chain when deriving', () => {
    const hostKey = host.defineSharedContextKey<string | undefined>('test.formats.client-id', undefined);
    const olderKey = older.defineSharedContextKey<string | undefined>('test.formats.client-id', undefined);
    const perCall = host.withDeferredAbort(
      new host.DeferredAbort(),
      host.withContextValue(hostKey, 'client-7', host.BACKGROUND_CONTEXT),
    );
    const derived = older.withAbortSignal(new AbortController().signal, perCall);
    expect(derived.value(olderKey)).toBe('client-7');
    expect(host.withTelemetryContext(derived.telemetryContext, derived).value(hostKey)).toBe('client-7');
    const fromOlder = older.withContextValue(olderKey, 'client-8', older.BACKGROUND_CONTEXT);
    expect(host.withContextValue(host.createContextKey('other', 0), 1, fromOlder).value(hostKey)).toBe('client-8');
  });

  it('both reject spread copies of either’s contexts, frozen or not, and look-alikes decoded from JSON', () => {
    const key = host.createContextKey('test.formats.copies', 0);
    for (const context of [host.withContextValue(key, 1, host.BACKGROUND_CONTEXT), older.BACKGROUND_CONTEXT]) {
      const copies: unknown[] = [{ ...context }, Object.freeze({ ...context }), JSON.parse(JSON.stringify(context))];
      for (const copy of copies) {
        expect(host.isContext(copy)).toBe(false);
        expect(older.isContext(copy)).toBe(false);
      }
    }
  });

  it('cannot be changed, in either format', () => {
    const context = host.withContextValue(host.createContextKey('test.formats.frozen', 0), 1, host.BACKGROUND_CONTEXT);
    expect(Object.isFrozen(context)).toBe(true);
    expect(() => {
      (context as unknown as Record<symbol, unknown>)[Symbol.for('@pi/context.values.v1')] = undefined;
    }).toThrow(TypeError);
    expect(Object.isFrozen(older.BACKGROUND_CONTEXT)).toBe(true);
  });
});
