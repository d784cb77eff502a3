import { describe, expect, it } from 'vitest';
import { deepMerge, readPath, writePath } from './json-object';

describe('deepMerge', () => {
  it('merges plain objects key by key, the later layer winning', () => {
    const merged = deepMerge(
      { theme: 'dark', editor: { tabSize: 2, vim: false } },
      { editor: { vim: true } },
      { theme: 'light' },
    );
    expect(merged).toEqual({ theme: 'light', editor: { tabSize: 2, vim: true } });
  });

  it('replaces arrays, primitives and null instead of merging them', () => {
    expect(deepMerge({ list: [1, 2], model: { provider: 'a', modelId: 'b' } }, { list: [3], model: null })).toEqual({
      list: [3],
      model: null,
    });
    expect(deepMerge({ editor: { tabSize: 2 } }, { editor: 'vim' })).toEqual({ editor: 'vim' });
  });

  it('leaves its inputs untouched', () => {
    const base = { editor: { tabSize: 2 } };
    deepMerge(base, { editor: { tabSize: 4 } });
    expect(base).toEqual({ editor: { tabSize: 2 } });
  });
});

describe('dotted paths', () => {
  it('reads nested values and reports missing ones as undefined', () => {
    const root = { editor: { tabSize: 2 }, theme: 'dark' };
    expect(readPath(root, 'editor.tabSize')).toBe(2);
    expect(readPath(root, 'theme.length')).toBeUndefined();
    expect(readPath(root, 'missing.key')).toBeUndefined();
  });

  it('writes a nested value into a copy, creating objects on the way', () => {
    const root = { editor: { tabSize: 2 }, theme: 'dark' };
    expect(writePath(root, 'editor.vim', true)).toEqual({ editor: { tabSize: 2, vim: true }, theme: 'dark' });
    expect(writePath(root, 'theme.name', 'x')).toEqual({ editor: { tabSize: 2 }, theme: { name: 'x' } });
    expect(root).toEqual({ editor: { tabSize: 2 }, theme: 'dark' });
  });
});
