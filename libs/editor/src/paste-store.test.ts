import { describe, expect, it } from 'vitest';
import { PasteStore, sanitize } from './paste-store';
import { editorSegments } from './segments';

describe('PasteStore', () => {
  it('expands markers back to the pasted text', () => {
    const store = new PasteStore();
    const first = store.add('one\ntwo') ?? '';
    const second = store.add('three') ?? '';
    expect(store.expand(`a${first}b${second}`)).toBe('aone\ntwobthree');
    expect(store.label(first)).toBe('[paste #1 +2 lines]');
    expect(store.label(second)).toBe('[paste #2 5 chars]');
  });

  it('collapse puts markers back for pastes that are still there verbatim', () => {
    const store = new PasteStore();
    const marker = store.add('BIG') ?? '';
    expect(store.collapse('x BIG y')).toBe(`x ${marker} y`);
    expect(store.collapse('x BOG y')).toBe('x BOG y');
  });

  it('a marker stays one unit even before a combining mark', () => {
    const marker = new PasteStore().add('p') ?? '';
    expect(editorSegments(`${marker}\u0301a`)).toEqual([marker, '\u0301', 'a']);
  });
});

describe('sanitize', () => {
  it('keeps newlines and tabs, drops other controls and escape sequences', () => {
    expect(sanitize('a\tb\r\nc\x1b[1md\x00\x07')).toBe('a\tb\ncd');
  });
});
