import { controlKey, isControlCharacter } from './control-keys';
import { textKey, type InputEvent } from './events';
import { parseEscape } from './parse-escape';
import { splitGraphemes } from '../text/width';

/**
 * The stateful decoder between stdin and the UI. Feed it every chunk as it arrives (bytes or strings); it calls
 * `onEvent` with named keys, whole pastes, and unknown sequences. State carried between chunks:
 * - a sequence cut by the chunk boundary (ESC alone, `ESC [1;`) waits for the next chunk; if none comes within
 *   `escapeTimeoutMs` it is decided as it stands: a lone ESC is Escape, ESC ESC is two Escapes;
 * - a bracketed paste (`ESC[200~` … `ESC[201~`) is collected whole, however many chunks it spans;
 * - UTF-8 split between byte chunks, and a grapheme that may continue (ending in ZWJ, one half of a flag).
 */

export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export interface InputDecoderOptions {
  readonly onEvent: (event: InputEvent) => void;
  /** How long a prefix such as a lone ESC waits for the rest of a sequence. Default 10 ms. */
  readonly escapeTimeoutMs?: number;
  /** Report mouse sequences as events; when false (default) they are dropped. */
  readonly mouse?: boolean;
  /** Injected clock for tests; defaults to setTimeout/clearTimeout. */
  readonly timers?: Timers;
}

export interface InputDecoder {
  feed(chunk: string | Uint8Array): void;
  /** Decides whatever is pending now, as the timeout would. */
  flush(): void;
  /** True while input waits for more (a prefix, or an unfinished paste). */
  readonly waiting: boolean;
  /** Cancels the timer; pending input is dropped. */
  dispose(): void;
}

const ESC = '\x1b';
const PASTE_END = '\x1b[201~';
const ZWJ = '\u200d';

const defaultTimers: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** True when the grapheme may be the start of a longer one split by the chunk boundary. */
function mayContinue(grapheme: string): boolean {
  const last = grapheme.charCodeAt(grapheme.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) return true; // high surrogate of a split pair
  if (grapheme.endsWith(ZWJ)) return true;
  const code = grapheme.codePointAt(0) ?? 0;
  return grapheme.length === 2 && code >= 0x1f1e6 && code <= 0x1f1ff; // a lone regional indicator
}

/** Length of the longest suffix of `text` that is a proper prefix of the paste end marker. */
function partialEnd(text: string): number {
  for (let n = Math.min(PASTE_END.length - 1, text.length); n > 0; n--) {
    if (PASTE_END.startsWith(text.slice(-n))) return n;
  }
  return 0;
}

export function createInputDecoder(options: InputDecoderOptions): InputDecoder {
  const { onEvent, escapeTimeoutMs = 10, mouse = false, timers = defaultTimers } = options;
  const utf8 = new TextDecoder('utf-8');
  let pending = '';
  let paste: string | undefined;
  let timer: unknown;
  let disposed = false;

  const clearTimer = (): void => {
    if (timer !== undefined) timers.clear(timer);
    timer = undefined;
  };

  const emitPaste = (text: string): void => onEvent({ type: 'paste', text: text.replace(/\r\n?/g, '\n') });

  function process(final: boolean): void {
    const input = pending;
    let i = 0;
    while (i < input.length) {
      if (paste !== undefined) {
        const end = input.indexOf(PASTE_END, i);
        if (end === -1) {
          const keep = partialEnd(input.slice(i));
          paste += input.slice(i, input.length - keep);
          i = input.length - keep;
          break;
        }
        const text = paste + input.slice(i, end);
        paste = undefined;
        i = end + PASTE_END.length;
        emitPaste(text);
        continue;
      }
      const char = input.charAt(i);
      if (char === ESC) {
        const parsed = parseEscape(input, i, final, mouse);
        if (parsed.kind === 'incomplete') break;
        if (parsed.kind === 'pasteStart') paste = '';
        else if (parsed.event !== undefined) onEvent(parsed.event);
        i += parsed.length;
        continue;
      }
      if (isControlCharacter(char)) {
        onEvent(controlKey(char, char));
        i++;
        continue;
      }
      let end = i;
      while (end < input.length && !isControlCharacter(input.charAt(end))) end++;
      const graphemes = splitGraphemes(input.slice(i, end));
      const last = graphemes[graphemes.length - 1];
      const hold = !final && end === input.length && last !== undefined && mayContinue(last);
      if (hold) graphemes.pop();
      for (const grapheme of graphemes) {
        const code = grapheme.charCodeAt(0);
        onEvent(code >= 0x80 && code < 0xa0 ? { type: 'unknown', sequence: grapheme } : textKey(grapheme));
      }
      i = hold ? end - (last?.length ?? 0) : end;
      if (hold) break;
    }
    pending = input.slice(i);
  }

  function run(final: boolean): void {
    clearTimer();
    process(final);
    if (!final && pending !== '' && paste === undefined) {
      timer = timers.set(() => {
        timer = undefined;
        if (!disposed) run(true);
      }, escapeTimeoutMs);
    }
  }

  return {
    feed(chunk) {
      if (disposed) return;
      pending += typeof chunk === 'string' ? chunk : utf8.decode(chunk, { stream: true });
      run(false);
    },
    flush() {
      if (!disposed) run(true);
    },
    get waiting() {
      return pending !== '' || paste !== undefined;
    },
    dispose() {
      disposed = true;
      clearTimer();
      pending = '';
      paste = undefined;
    },
  };
}

/** Decodes a complete input at once (a test, a recorded session): what a decoder emits for these chunks. */
export function decodeInput(
  chunks: string | Uint8Array | readonly (string | Uint8Array)[],
  options: { readonly mouse?: boolean } = {},
): InputEvent[] {
  const events: InputEvent[] = [];
  const noTimers: Timers = { set: () => undefined, clear: () => undefined };
  const decoder = createInputDecoder({ onEvent: (e) => events.push(e), timers: noTimers, mouse: options.mouse });
  const list = typeof chunks === 'string' || chunks instanceof Uint8Array ? [chunks] : chunks;
  for (const chunk of list) decoder.feed(chunk);
  decoder.flush();
  return events;
}
