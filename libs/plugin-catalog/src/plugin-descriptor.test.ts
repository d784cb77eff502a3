import { expect, it } from 'vitest';
import { hasFacet } from './plugin-descriptor';

it('a plugin has a facet only for the hosts its descriptor names', () => {
  const descriptor = { id: '@pi/theme', description: 'colours', facets: ['tui'] as const };
  expect(hasFacet(descriptor, 'tui')).toBe(true);
  expect(hasFacet(descriptor, 'session')).toBe(false);
});
