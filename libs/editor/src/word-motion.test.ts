import { describe, expect, it } from 'vitest';
import { MARKER_BASE } from './segments';
import { wordLeft, wordRight } from './word-motion';

/** Runs a motion from the `|` in `text` and shows where it lands. */
function move(motion: typeof wordLeft, marked: string): string {
  const at = marked.indexOf('|');
  const text = marked.replace('|', '');
  const to = motion(text, at);
  return `${text.slice(0, to)}|${text.slice(to)}`;
}

describe('word motions', () => {
  it.each([
    ['hello world|', 'hello |world'],
    ['hello |world', '|hello world'],
    ['a.b|', 'a.|b'],
    ['a...|', 'a|...'],
    ['x   |', '|x   '],
    ['line\n|', '|line\n'],
    ['naïve café|', 'naïve |café'],
    ['中文 字|', '中文 |字'],
    ['|', '|'],
  ])('word left of %j is %j', (from, to) => {
    expect(move(wordLeft, from)).toBe(to);
  });

  it.each([
    ['|hello world', 'hello| world'],
    ['hello| world', 'hello world|'],
    ['|foo_bar(1)', 'foo_bar|(1)'],
    ['|', '|'],
  ])('word right of %j is %j', (from, to) => {
    expect(move(wordRight, from)).toBe(to);
  });

  it('a paste marker is a word of its own', () => {
    const marker = String.fromCodePoint(MARKER_BASE + 1);
    expect(wordLeft(`ab${marker}`, 4)).toBe(2);
    expect(wordRight(`${marker}ab`, 0)).toBe(2);
  });
});
