import { describe, expect, it } from 'vitest';
import { parseManifest, type PluginManifest } from '@pi/kernel';
import type { PluginDescriptor } from '@pi/plugin-catalog';
import { resolveSessionFacets } from './facet-resolution';
import type { SessionFacet } from './session-context';

const catalog: PluginDescriptor[] = [
  { id: '@pi/models', description: 'models', facets: ['session', 'tui'] },
  { id: '@pi/theme', description: 'colours', facets: ['tui'] },
  { id: '@pi/directory', description: 'session directory', facets: ['coordinator', 'session'] },
];
const models: SessionFacet = () => undefined;
const directory: SessionFacet = () => undefined;
const table = { '@pi/models': models, '@pi/directory': directory };

function manifest(json: unknown): PluginManifest {
  return parseManifest(json)._unsafeUnwrap();
}

describe('per-host entry resolution', () => {
  it('loads the session facets of the manifest in manifest order, with their config', () => {
    const resolved = resolveSessionFacets(
      manifest({ plugins: [{ id: '@pi/directory', config: { limit: 3 } }, '@pi/models'] }),
      catalog,
      table,
    );
    expect(resolved._unsafeUnwrap()).toEqual([
      { id: '@pi/directory', config: { limit: 3 }, facet: directory },
      { id: '@pi/models', config: null, facet: models },
    ]);
  });

  it('skips a known plugin that has no session facet', () => {
    const resolved = resolveSessionFacets(manifest({ plugins: ['@pi/theme', '@pi/models'] }), catalog, table);
    expect(resolved._unsafeUnwrap().map((facet) => facet.id)).toEqual(['@pi/models']);
  });

  it('rejects an unknown plugin id, naming it and the known ones', () => {
    const error = resolveSessionFacets(
      manifest({ plugins: ['@pi/models', '@pi/nope'] }),
      catalog,
      table,
    )._unsafeUnwrapErr();
    expect(error.code).toBe('unknown_plugin');
    expect(error.pluginId).toBe('@pi/nope');
    expect(error.message).toContain('"@pi/nope"');
    expect(error.message).toContain('@pi/models');
  });

  it('rejects a plugin whose declared session facet is missing from this build', () => {
    const error = resolveSessionFacets(manifest({ plugins: ['@pi/directory'] }), catalog, {
      '@pi/models': models,
    })._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'missing_facet', pluginId: '@pi/directory' });
    expect(error.message).toContain('"@pi/directory"');
  });

  it('never takes a facet from an inherited property of the table', () => {
    const inherited = Object.create({ '@pi/models': models }) as Record<string, SessionFacet>;
    const error = resolveSessionFacets(manifest({ plugins: ['@pi/models'] }), catalog, inherited)._unsafeUnwrapErr();
    expect(error.code).toBe('missing_facet');
  });
});
