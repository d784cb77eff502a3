import { describe, expect, it } from 'vitest';
import { parseManifest } from './manifest';

describe('parseManifest', () => {
  it('accepts id strings and entry objects, in order, with null config by default', () => {
    const manifest = parseManifest({
      plugins: ['@pi/chat', { id: '@pi/permissions', config: { mode: 'ask', paths: ['/tmp'] } }, { id: '@pi/git' }],
    });
    expect(manifest._unsafeUnwrap().entries).toEqual([
      { id: '@pi/chat', config: null },
      { id: '@pi/permissions', config: { mode: 'ask', paths: ['/tmp'] } },
      { id: '@pi/git', config: null },
    ]);
  });

  it('accepts an empty plugin list', () => {
    expect(parseManifest({ plugins: [] })._unsafeUnwrap().entries).toEqual([]);
  });

  it.each([
    ['an array', [], 'not_an_object'],
    ['null', null, 'not_an_object'],
    ['a string', '@pi/chat', 'not_an_object'],
    ['no plugins key', {}, 'missing_plugins'],
    ['a plugins object', { plugins: { '@pi/chat': {} } }, 'plugins_not_array'],
    ['a misspelt top-level key', { plugins: [], plugin: [] }, 'unknown_key'],
    ['a numeric entry', { plugins: [42] }, 'invalid_entry'],
    ['an entry without id', { plugins: [{ config: {} }] }, 'invalid_entry'],
    ['a misspelt entry key', { plugins: [{ id: 'a', confg: {} }] }, 'unknown_key'],
    ['an empty id string', { plugins: [''] }, 'empty_id'],
    ['a blank id', { plugins: [{ id: '  ' }] }, 'empty_id'],
    ['a duplicate id', { plugins: ['a', { id: 'a' }] }, 'duplicate_id'],
  ])('rejects %s', (_title, json, code) => {
    expect(parseManifest(json)._unsafeUnwrapErr().code).toBe(code);
  });

  it('names the offending entry in the message', () => {
    const error = parseManifest({ plugins: ['a', 'b', 7] })._unsafeUnwrapErr();
    expect(error.message).toContain('plugins[2]');
  });

  it('names the repeated id', () => {
    expect(parseManifest({ plugins: ['@pi/chat', '@pi/chat'] })._unsafeUnwrapErr().message).toContain('"@pi/chat"');
  });

  it.each([
    ['a function', { run: () => undefined }, 'plugins[0].config.run is a function'],
    ['a Date', { at: new Date(0) }, 'plugins[0].config.at is a Date instance'],
    ['a Map', new Map(), 'plugins[0].config is a Map instance'],
    ['a non-finite number', { limit: Number.POSITIVE_INFINITY }, 'plugins[0].config.limit is a non-finite number'],
    ['undefined in an array', { list: [1, undefined] }, 'plugins[0].config.list[1] is undefined'],
  ])('rejects non-JSON config holding %s and says where', (_title, config, where) => {
    const error = parseManifest({ plugins: [{ id: 'a', config }] })._unsafeUnwrapErr();
    expect(error.code).toBe('invalid_config');
    expect(error.message).toContain(where);
  });

  it('rejects circular config', () => {
    const config: Record<string, unknown> = {};
    config['self'] = config;
    expect(parseManifest({ plugins: [{ id: 'a', config }] })._unsafeUnwrapErr().message).toContain('circular');
  });
});
