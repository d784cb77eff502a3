import { stripAnsi } from '@pi/terminal';
import { MARKER_BASE, MARKER_LAST } from './segments';

/**
 * Large pastes, kept out of the editable text. Each one is a numbered marker character in the text, shown as
 * `[paste #1 +40 lines]` and expanded back to the pasted text by `expand`. Numbers are never reused within an
 * editor, so a marker in an undo step or a history entry always finds its paste.
 */
export class PasteStore {
  private readonly pastes = new Map<string, string>();
  private next = 1;

  /** Stores a paste and returns its marker, or undefined when the editor has run out of marker numbers. */
  add(text: string): string | undefined {
    if (MARKER_BASE + this.next > MARKER_LAST) return undefined;
    const marker = String.fromCodePoint(MARKER_BASE + this.next++);
    this.pastes.set(marker, text);
    return marker;
  }

  has(marker: string): boolean {
    return this.pastes.has(marker);
  }

  /** `[paste #3 +40 lines]`, or `[paste #3 1,234 chars]` for a long single line. */
  label(marker: string): string {
    const number = (marker.codePointAt(0) ?? MARKER_BASE) - MARKER_BASE;
    const text = this.pastes.get(marker) ?? '';
    // A paste of whole lines ends with a newline, which starts no line of its own.
    const lines = text.replace(/\n$/, '').split('\n').length;
    const size = lines > 1 ? `+${lines} lines` : `${text.length.toLocaleString('en-US')} chars`;
    return `[paste #${number} ${size}]`;
  }

  /** The text with every marker replaced by its paste. */
  expand(text: string): string {
    return text.replace(/[\u{f0000}-\u{ffffd}]/gu, (marker) => this.pastes.get(marker) ?? '');
  }

  /** Puts markers back for pastes that come back verbatim (after an external editor), newest first. */
  collapse(text: string): string {
    let out = text;
    for (const [marker, paste] of [...this.pastes].reverse()) {
      if (paste !== '' && out.includes(paste)) out = out.replace(paste, marker);
    }
    return out;
  }
}

/**
 * Makes text safe to keep in the editor: escape sequences and control characters other than newline and tab
 * are dropped, line breaks become `\n`, and characters that would pose as paste markers become U+FFFD.
 */
export function sanitize(text: string): string {
  return stripAnsi(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[\u{f0000}-\u{ffffd}]/gu, '\ufffd')
    .replace(/[\p{Cc}]/gu, (c) => (c === '\n' || c === '\t' ? c : ''));
}
