import { describe, expect, it } from 'vitest';
import { parseSessionFile } from './session-file-parse';

const header = { type: 'session', version: 1, sessionId: 's', cwd: '/w', createdAt: 't' };
const entry = (id: string, parentId: string | null) => ({
  id,
  parentId,
  timestamp: 't',
  kind: 'custom',
  namespace: 'n',
  data: null,
});
const bytes = (text: string) => new TextEncoder().encode(text);
const lines = (...values: unknown[]) => values.map((value) => `${JSON.stringify(value)}\n`).join('');

describe('parseSessionFile', () => {
  it('reads an empty file as a session still to be started', () => {
    expect(parseSessionFile(bytes(''))._unsafeUnwrap()).toEqual({ header: null, entries: [], tornTail: null });
  });

  it('reads the header and the entries in order', () => {
    const parsed = parseSessionFile(bytes(lines(header, entry('a', null), entry('b', 'a'))))._unsafeUnwrap();
    expect(parsed.header).toEqual(header);
    expect(parsed.entries.map((restored) => restored.id)).toEqual(['a', 'b']);
    expect(parsed.tornTail).toBeNull();
  });

  it('treats a valid but unterminated last line as torn: its write never finished', () => {
    const text = lines(header, entry('a', null));
    const tail = JSON.stringify(entry('b', 'a'));
    const parsed = parseSessionFile(bytes(text + tail))._unsafeUnwrap();
    expect(parsed.entries.map((restored) => restored.id)).toEqual(['a']);
    expect(parsed.tornTail).toEqual({ offset: bytes(text).length, bytes: bytes(tail).length });
  });

  it('treats a terminated last line that is not JSON as torn', () => {
    const text = lines(header);
    expect(parseSessionFile(bytes(`${text}{"id":\n`))._unsafeUnwrap().tornTail).toEqual({
      offset: text.length,
      bytes: 7,
    });
  });

  it('counts the torn line in bytes, not characters', () => {
    const text = lines(header);
    expect(parseSessionFile(bytes(`${text}{"é`))._unsafeUnwrap().tornTail).toEqual({ offset: text.length, bytes: 4 });
  });

  it('reads a file holding only a torn header as a session to start afresh', () => {
    expect(parseSessionFile(bytes('{"type":"sess'))._unsafeUnwrap()).toEqual({
      header: null,
      entries: [],
      tornTail: { offset: 0, bytes: 13 },
    });
  });

  it('reads leaf moves (a move to before the first entry has no parent) and a forked header', () => {
    const moved = (id: string, parentId: string | null, from: string | null) => ({
      id,
      parentId,
      timestamp: 't',
      kind: 'leaf_moved',
      from,
    });
    const forked = { ...header, forkedFrom: { sessionId: 'original', entryId: 'x' } };
    const text = lines(forked, entry('a', null), entry('b', 'a'), moved('m', 'a', 'b'), moved('n', null, 'a'));
    const parsed = parseSessionFile(bytes(text))._unsafeUnwrap();
    expect(parsed.header).toEqual(forked);
    expect(parsed.entries.map((restored) => restored.kind)).toEqual(['custom', 'custom', 'leaf_moved', 'leaf_moved']);
    // A leaf move is checked like any entry: its parent must come first.
    expect(
      parseSessionFile(bytes(lines(header, moved('m', 'a', null), entry('a', null))))._unsafeUnwrapErr().line,
    ).toBe(2);
  });

  it.each([
    ['a last line that is JSON but no entry', lines(header, entry('a', null), { kind: 'mystery' }), 3],
    ['a bad line before the last', `${lines(header)}oops\n${lines(entry('a', null))}`, 2],
    ['a blank line before the last', `${lines(header)}\n${lines(entry('a', null))}`, 2],
    ['a header of another shape', lines({ type: 'session', version: 2 }, entry('a', null)), 1],
    ['a repeated entry id', lines(header, entry('a', null), entry('a', null)), 3],
    ['a parent that comes later', lines(header, entry('a', 'b'), entry('b', null)), 2],
  ])('refuses %s, naming the line', (_name, text, line) => {
    expect(parseSessionFile(bytes(text))._unsafeUnwrapErr().line).toBe(line);
  });
});
