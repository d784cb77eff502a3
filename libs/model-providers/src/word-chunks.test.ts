import { describe, expect, it } from 'vitest';
import { wordChunks } from './word-chunks';

describe('wordChunks', () => {
  it('splits text into words that concatenate back to the original text', () => {
    const text = '  Hello,  offline\nworld! ';
    const chunks = wordChunks(text);
    expect(chunks).toEqual(['  Hello,  ', 'offline\n', 'world! ']);
    expect(chunks.join('')).toBe(text);
  });

  it('returns no chunks for empty text and one chunk for whitespace only', () => {
    expect(wordChunks('')).toEqual([]);
    expect(wordChunks('   ')).toEqual(['   ']);
  });
});
