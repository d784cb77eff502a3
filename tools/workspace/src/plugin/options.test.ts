import { describe, expect, it } from 'vitest';
import { PluginOptionsError, normalizePluginOptions } from './options';

describe('normalizePluginOptions', () => {
  it('accepts kebab-case names', () => {
    for (const name of ['question', 'session-directory', 'mcp2', 'a-b2-c']) {
      expect(normalizePluginOptions({ name }).name).toBe(name);
    }
  });

  it('rejects names that are not kebab-case, saying what the form is', () => {
    for (const name of ['', 'Question', 'session_directory', '-question', 'question-', 'two--dashes', '2fa', '@pi/x']) {
      expect(() => normalizePluginOptions({ name }), name).toThrow(PluginOptionsError);
      expect(() => normalizePluginOptions({ name }), name).toThrow(/not kebab-case: use lowercase letters/);
    }
  });

  it('rejects names too long to prefix a service id, saying the limit', () => {
    expect(normalizePluginOptions({ name: 'a'.repeat(50) }).name).toHaveLength(50);
    expect(() => normalizePluginOptions({ name: 'a'.repeat(51) })).toThrow(/51 characters long; use at most 50/);
  });

  it('reads facets from a comma-separated string or a list, in host order', () => {
    expect(normalizePluginOptions({ name: 'q', facets: ' tui , session ' }).facets).toEqual(['session', 'tui']);
    expect(normalizePluginOptions({ name: 'q', facets: ['coordinator', 'tui'] }).facets).toEqual([
      'tui',
      'coordinator',
    ]);
  });

  it('treats an empty facet list as contract only and ignores an explicit contract', () => {
    expect(normalizePluginOptions({ name: 'q', facets: '' }).facets).toEqual([]);
    expect(normalizePluginOptions({ name: 'q', facets: 'contract,tui' }).facets).toEqual(['tui']);
  });

  it('rejects unknown and repeated facets, naming the allowed ones', () => {
    expect(() => normalizePluginOptions({ name: 'q', facets: 'session,web' })).toThrow(
      'Unknown facet "web": --facets takes a comma-separated subset of session, tui, coordinator',
    );
    expect(() => normalizePluginOptions({ name: 'q', facets: 'tui,tui' })).toThrow('Facet "tui" is listed twice');
  });
});
