/**
 * Splits a string into escape sequences (zero width) and plain text, so width, wrapping and truncation can skip
 * the former and keep them in place.
 */

export type AnsiToken =
  | { readonly kind: 'escape'; readonly text: string }
  | { readonly kind: 'text'; readonly text: string };

const ESC = '\x1b';
const BEL = '\x07';

/** Length of the escape sequence starting at `start` (which holds ESC), or 1 for a lone ESC. */
export function escapeLength(text: string, start: number): number {
  const next = text[start + 1];
  if (next === undefined) return 1;
  if (next === '[') {
    // CSI: parameter and intermediate bytes, then one final byte in 0x40–0x7e.
    for (let i = start + 2; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0x40 && code <= 0x7e) return i - start + 1;
      if (code < 0x20 || code > 0x3f) return i - start; // malformed: stop before the stray byte
    }
    return text.length - start;
  }
  if (next === ']' || next === 'P' || next === '_' || next === '^') {
    // OSC, DCS, APC, PM: up to BEL or ST (ESC \).
    for (let i = start + 2; i < text.length; i++) {
      if (text[i] === BEL) return i - start + 1;
      if (text[i] === ESC && text[i + 1] === '\\') return i - start + 2;
    }
    return text.length - start;
  }
  return 2; // a two-character escape such as ESC 7, ESC =
}

/** Escape sequences and text runs, in order. Concatenating the tokens' text gives back the input. */
export function tokenizeAnsi(text: string): AnsiToken[] {
  const tokens: AnsiToken[] = [];
  let runStart = 0;
  let i = text.indexOf(ESC);
  while (i !== -1) {
    if (i > runStart) tokens.push({ kind: 'text', text: text.slice(runStart, i) });
    const length = escapeLength(text, i);
    tokens.push({ kind: 'escape', text: text.slice(i, i + length) });
    runStart = i + length;
    i = text.indexOf(ESC, runStart);
  }
  if (runStart < text.length) tokens.push({ kind: 'text', text: text.slice(runStart) });
  return tokens;
}

/** The text without its escape sequences. */
export function stripAnsi(text: string): string {
  if (!text.includes(ESC)) return text;
  let out = '';
  for (const token of tokenizeAnsi(text)) if (token.kind === 'text') out += token.text;
  return out;
}

/** The parameters of an SGR sequence (`ESC [ … m`), or undefined for any other escape sequence. */
export function sgrParameters(escape: string): string | undefined {
  if (escape.length < 3 || escape[1] !== '[' || !escape.endsWith('m')) return undefined;
  const params = escape.slice(2, -1);
  return /^[0-9;:]*$/.test(params) ? params : undefined;
}
