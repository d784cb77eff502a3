import { expect, it } from 'vitest';
import { BUILTIN_PLUGINS, DEFAULT_MANIFEST } from './builtin-plugins';

it('the default manifest names every built-in once, in the catalogue order', () => {
  expect(DEFAULT_MANIFEST.plugins).toEqual([
    '@pi/settings',
    '@pi/accounts',
    '@pi/providers-builtin',
    '@pi/chat',
    '@pi/question',
  ]);
  expect(new Set(DEFAULT_MANIFEST.plugins).size).toBe(BUILTIN_PLUGINS.length);
});

it('every built-in today has a session facet', () => {
  expect(BUILTIN_PLUGINS.every((plugin) => plugin.facets.includes('session'))).toBe(true);
});
