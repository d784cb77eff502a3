import { describe, expect, expectTypeOf, it } from 'vitest';
import { definePlugin } from './define-plugin';
import type { HostContexts } from './host-contexts';
import { pluginApiMismatch } from './host-compatibility';
import { PLUGIN_API_VERSION, checkApiVersion, pluginMetadataSchema } from './plugin-metadata';

describe('plugin API versions', () => {
  it('accepts a plugin built for this major and an equal or older minor', () => {
    expect(checkApiVersion(PLUGIN_API_VERSION).isOk()).toBe(true);
    expect(checkApiVersion('1.0', '1.3').isOk()).toBe(true);
  });

  it('refuses a newer minor, another major, or a version that is not major.minor', () => {
    expect(checkApiVersion('1.4', '1.3')._unsafeUnwrapErr()).toBe(
      'it was built for plugin API 1.4, this pi provides 1.3',
    );
    expect(checkApiVersion('2.0', '1.3').isErr()).toBe(true);
    expect(checkApiVersion('0.9', '1.3').isErr()).toBe(true);
    expect(checkApiVersion('1', '1.3').isErr()).toBe(true);
  });
});

describe('plugin metadata', () => {
  it('names a facet module per known host and nothing else', () => {
    expect(
      pluginMetadataSchema.safeParse({ apiVersion: '2.0', facets: { session: './s.js', tui: '@x/t' } }).success,
    ).toBe(true);
    expect(pluginMetadataSchema.safeParse({ apiVersion: '2.0', facets: { browser: './b.js' } }).success).toBe(false);
    expect(pluginMetadataSchema.safeParse({ apiVersion: '2.0', facets: {}, extra: true }).success).toBe(false);
  });
});

describe('host contexts', () => {
  it('gives each facet only its own host’s context', () => {
    definePlugin({
      id: 'typed',
      session: (context) => {
        expectTypeOf(context).toEqualTypeOf<HostContexts['session']>();
        expectTypeOf(context).toHaveProperty('agent');
        expectTypeOf(context).toHaveProperty('tools');
      },
      tui: (context) => {
        expectTypeOf(context).toEqualTypeOf<HostContexts['tui']>();
        expectTypeOf(context).not.toHaveProperty('agent');
        expectTypeOf(context).not.toHaveProperty('provide');
        expectTypeOf(context).not.toHaveProperty('tools');
      },
      coordinator: (context) => {
        expectTypeOf(context).not.toHaveProperty('agent');
        expectTypeOf(context).toHaveProperty('provide');
      },
    });
  });

  it('a presentation’s use is remote and asynchronous; a providing host’s is local and synchronous', () => {
    expectTypeOf<HostContexts['tui']['use']>().returns.toMatchTypeOf<Promise<unknown>>();
    expectTypeOf<ReturnType<HostContexts['session']['use']>>().not.toMatchTypeOf<Promise<unknown>>();
  });
});

describe('pluginApiMismatch', () => {
  it('accepts a host of the same plugin API major, or one that names none', () => {
    expect(pluginApiMismatch('2.7', '2.0')).toBeNull();
    expect(pluginApiMismatch(undefined, '2.0')).toBeNull();
  });

  it('refuses a host of another major with one line naming both', () => {
    expect(pluginApiMismatch('3.0', '2.0')).toBe('the host runs plugin API 3.0, this pi 2.0');
  });

  it('refuses a host running a plugin built for another major than this pi provides, naming the plugin', () => {
    const host = { pluginApi: '2.1', plugins: [{ id: '@x/old' }, { id: '@x/new', apiVersion: '3.0' }] };
    expect(pluginApiMismatch(host, '2.1')).toBe(
      'the host runs plugin @x/new built for plugin API 3.0, this pi provides 2.1',
    );
  });

  it('refuses a plugin whose two halves were built for different majors, and accepts another minor', () => {
    const host = { pluginApi: '2.1', plugins: [{ id: '@x/todo', apiVersion: '2.0' }, { id: '@x/git' }] };
    const own = (apiVersion: string) => ({ pluginApi: '2.1', plugins: [{ id: '@x/todo', apiVersion }] });
    expect(pluginApiMismatch(host, own('2.1'))).toBeNull();
    expect(pluginApiMismatch(host, { pluginApi: '2.1', plugins: [{ id: '@x/git', apiVersion: '1.0' }] })).toBeNull();
    expect(pluginApiMismatch(host, own('1.4'))).toBe(
      'plugin @x/todo is built for plugin API 2.0 in the host and 1.4 here; install one version of it for both',
    );
  });

  it('is at plugin API 2.2: ui.streaming() was added (2.1: store, projectEntries, the editor slot), nothing removed', () => {
    expect(PLUGIN_API_VERSION).toBe('2.2');
    expect(checkApiVersion('2.0').isOk()).toBe(true);
    expect(checkApiVersion('2.1').isOk()).toBe(true);
    expect(checkApiVersion('2.3').isErr()).toBe(true);
  });
});
