import { describe, expect, it } from 'vitest';
import { ERROR_QUOTE_MAX, MAX_ERROR_MESSAGE_LENGTH, clipForError, quoteForError } from './error-text';
import { RemoteError } from './errors';

describe('quoteForError', () => {
  it('quotes a short string whole', () => {
    expect(quoteForError('gpt-4o')).toBe('"gpt-4o"');
  });

  it('cuts a long string to the limit, with an ellipsis and its full length', () => {
    const quoted = quoteForError('x'.repeat(16_000_000));
    expect(quoted).toBe(`"${'x'.repeat(ERROR_QUOTE_MAX)}…" (16000000 characters)`);
  });

  it('takes a smaller or larger limit', () => {
    expect(quoteForError('abcdef', 3)).toBe('"abc…" (6 characters)');
    expect(quoteForError('abcdef', 10)).toBe('"abcdef"');
  });

  it('escapes control characters and quotes, so an echoed value cannot forge a line or end the quote', () => {
    expect(quoteForError('a"b\nc')).toBe('"a\\"b\\nc"');
  });

  it('never splits a surrogate pair at the cut', () => {
    const quoted = quoteForError(`ab😀cd`, 3);
    expect(quoted).toBe('"ab…" (6 characters)');
  });

  it('names values other than strings by kind instead of printing them', () => {
    expect(quoteForError(42)).toBe('42');
    expect(quoteForError(null)).toBe('null');
    expect(quoteForError(undefined)).toBe('undefined');
    expect(quoteForError(Array.from({ length: 1_000_000 }, () => 'x'))).toBe('an array');
    expect(quoteForError({ big: 'x'.repeat(1_000_000) })).toBe('a value of type object');
  });
});

describe('clipForError', () => {
  it('keeps text within the limit and cuts longer text with its full length', () => {
    expect(clipForError('$.args[0]', 20)).toBe('$.args[0]');
    expect(clipForError('abcdef', 4)).toBe('abcd… (6 characters)');
  });
});

describe('RemoteError messages', () => {
  it('are bounded whatever a service interpolates into them', () => {
    const error = new RemoteError('unknown_model', `No model ${'x'.repeat(1_000_000)}`);
    expect(error.message.length).toBeLessThan(MAX_ERROR_MESSAGE_LENGTH + 40);
    expect(error.message).toMatch(/… \(1000009 characters\)$/);
    expect(error.toEnvelope().message).toBe(error.message);
  });
});
