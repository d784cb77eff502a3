import { expect, it } from 'vitest';
import { hasFacet } from './plugin-descriptor';

it('a plugin has a facet only for the hosts its descriptor names', () => {
  const descriptor = { id: '@pi/theme', description: 'colours', facets: ['tui'] as const };
  expect(hasFacet(descriptor, 'tui')).toBe(true);
  expect(hasFacet(descriptor, 'session')).toBe(false);
});

it('the default manifest names only known plugins, each once', async () => {
  const { BUILTIN_PLUGINS, DEFAULT_MANIFEST } = await import('./builtin-plugins');
  const known = new Set(BUILTIN_PLUGINS.map((plugin) => plugin.id));
  expect(DEFAULT_MANIFEST.plugins.every((id) => known.has(id))).toBe(true);
  expect(new Set(DEFAULT_MANIFEST.plugins).size).toBe(DEFAULT_MANIFEST.plugins.length);
});
