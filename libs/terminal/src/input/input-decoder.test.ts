import { describe, expect, it } from 'vitest';
import { manualTimers } from '../testing';
import type { InputEvent } from './events';
import { createInputDecoder, decodeInput } from './input-decoder';

function decoderWithClock(options: { mouse?: boolean } = {}) {
  const clock = manualTimers();
  const events: InputEvent[] = [];
  const decoder = createInputDecoder({ onEvent: (e) => events.push(e), timers: clock.timers, ...options });
  return { clock, events, decoder };
}

const keys = (events: readonly InputEvent[]): string[] =>
  events.map((e) =>
    e.type === 'key'
      ? `${e.ctrl ? 'ctrl+' : ''}${e.alt ? 'alt+' : ''}${e.shift ? 'shift+' : ''}${e.name}`
      : e.type === 'paste'
        ? `paste:${e.text}`
        : e.type,
  );

describe('the Esc timeout', () => {
  it('a lone Esc is an escape key once the timeout passes, not before', () => {
    const { clock, events, decoder } = decoderWithClock();
    decoder.feed('\x1b');
    expect(events).toEqual([]);
    clock.advance(9);
    expect(events).toEqual([]);
    clock.advance(1);
    expect(keys(events)).toEqual(['escape']);
    expect(clock.pendingCount).toBe(0);
  });

  it('Alt+Enter arrives as one alt+enter key, not escape then return', () => {
    expect(keys(decodeInput('\x1b\r'))).toEqual(['alt+enter']);
  });

  it('Esc then a letter within the timeout is Alt+letter, even across chunks', () => {
    const { clock, events, decoder } = decoderWithClock();
    decoder.feed('\x1b');
    clock.advance(5);
    decoder.feed('x');
    expect(keys(events)).toEqual(['alt+x']);
  });

  it('Esc, a pause, then a letter is escape followed by the letter', () => {
    const { clock, events, decoder } = decoderWithClock();
    decoder.feed('\x1b');
    clock.advance(10);
    decoder.feed('x');
    expect(keys(events)).toEqual(['escape', 'x']);
  });

  it('a fast Esc Esc is two escape keys, not one meta-escape', () => {
    const { clock, events, decoder } = decoderWithClock();
    decoder.feed('\x1b\x1b');
    clock.advance(10);
    expect(keys(events)).toEqual(['escape', 'escape']);
  });

  it('an arrow sequence split across chunks waits for its end instead of becoming alt+[', () => {
    const { clock, events, decoder } = decoderWithClock();
    decoder.feed('\x1b[');
    decoder.feed('1;5');
    expect(events).toEqual([]);
    decoder.feed('C');
    expect(keys(events)).toEqual(['ctrl+right']);
    clock.advance(50);
    expect(events).toHaveLength(1);
  });

  it('a sequence cut off for good becomes one unknown event, never typed text', () => {
    const { clock, events, decoder } = decoderWithClock();
    decoder.feed('\x1b[1;5');
    clock.advance(10);
    expect(events).toEqual([{ type: 'unknown', sequence: '\x1b[1;5' }]);
  });

  it('the timeout length is configurable', () => {
    const clock = manualTimers();
    const events: InputEvent[] = [];
    const decoder = createInputDecoder({ onEvent: (e) => events.push(e), timers: clock.timers, escapeTimeoutMs: 50 });
    decoder.feed('\x1b');
    clock.advance(49);
    expect(events).toEqual([]);
    clock.advance(1);
    expect(keys(events)).toEqual(['escape']);
  });

  it('dispose cancels the pending timeout and drops what waited', () => {
    const { clock, events, decoder } = decoderWithClock();
    decoder.feed('\x1b');
    decoder.dispose();
    clock.advance(100);
    decoder.feed('a');
    expect(events).toEqual([]);
  });
});

describe('bracketed paste', () => {
  it('everything between the markers is one paste event', () => {
    expect(decodeInput('\x1b[200~line 1\rline 2\x1b[201~')).toEqual([{ type: 'paste', text: 'line 1\nline 2' }]);
  });

  it('a paste split across three chunks is one paste event', () => {
    const { clock, events, decoder } = decoderWithClock();
    decoder.feed('\x1b[200~first\r\n');
    decoder.feed('second \x1b[A not a key\r\n');
    clock.advance(1000);
    decoder.feed('third\x1b[201~');
    expect(events).toEqual([{ type: 'paste', text: 'first\nsecond \x1b[A not a key\nthird' }]);
  });

  it('the markers themselves may be split at any byte', () => {
    const input = 'x\x1b[200~pasted\x1b[201~y';
    for (let cut = 1; cut < input.length; cut++) {
      for (let cut2 = cut + 1; cut2 < input.length; cut2++) {
        const events = decodeInput([input.slice(0, cut), input.slice(cut, cut2), input.slice(cut2)]);
        expect(keys(events), `cuts at ${cut}, ${cut2}`).toEqual(['x', 'paste:pasted', 'y']);
      }
    }
  });

  it('a waiting paste does not time out', () => {
    const { clock, events, decoder } = decoderWithClock();
    decoder.feed('\x1b[200~abc');
    clock.advance(10_000);
    expect(events).toEqual([]);
    expect(decoder.waiting).toBe(true);
    decoder.feed('\x1b[201~');
    expect(keys(events)).toEqual(['paste:abc']);
  });

  it('keys typed after a paste are keys again', () => {
    expect(keys(decodeInput('\x1b[200~a\rb\x1b[201~\r'))).toEqual(['paste:a\nb', 'enter']);
  });
});

describe('text', () => {
  it('UTF-8 split between byte chunks arrives as one character', () => {
    const bytes = new TextEncoder().encode('中🐢');
    const chunks = [bytes.slice(0, 1), bytes.slice(1, 4), bytes.slice(4, 6), bytes.slice(6)];
    expect(keys(decodeInput(chunks))).toEqual(['中', '🐢']);
  });

  it('an emoji family arrives as one key even when split after a zero-width joiner', () => {
    const family = '👨‍👩‍👧';
    const { clock, events, decoder } = decoderWithClock();
    decoder.feed(family.slice(0, 3)); // 👨 + ZWJ
    expect(events).toEqual([]);
    decoder.feed(family.slice(3));
    clock.advance(10);
    expect(events).toEqual([expect.objectContaining({ type: 'key', name: family, text: family })]);
  });

  it('a flag split between its two halves arrives as one key', () => {
    const flag = '🇫🇷';
    expect(keys(decodeInput([flag.slice(0, 2), flag.slice(2)]))).toEqual([flag]);
  });

  it('a combining mark stays with its letter', () => {
    expect(decodeInput('e\u0301x')).toMatchObject([{ name: 'e\u0301', text: 'e\u0301' }, { name: 'x' }]);
  });

  it('a capital letter is shift plus the letter, and types the capital', () => {
    expect(decodeInput('A')).toEqual([
      { type: 'key', name: 'a', ctrl: false, alt: false, shift: true, sequence: 'A', text: 'A' },
    ]);
  });

  it('space is the named key space that types a space', () => {
    expect(decodeInput(' ')).toMatchObject([{ name: 'space', text: ' ' }]);
  });

  it('typed text in one chunk is one key per grapheme', () => {
    expect(keys(decodeInput('hi 🐢!'))).toEqual(['h', 'i', 'space', '🐢', '!']);
  });
});

describe('mouse', () => {
  const sgrClick = '\x1b[<0;10;5M';

  it('mouse reports are dropped when the mouse is off', () => {
    expect(decodeInput(`a${sgrClick}\x1b[<0;10;5mb\x1b[M !!c`)).toMatchObject([
      { name: 'a' },
      { name: 'b' },
      { name: 'c' },
    ]);
  });

  it('mouse reports become mouse events when enabled', () => {
    expect(decodeInput([sgrClick, '\x1b[<64;1;1M', '\x1b[<0;10;5m'], { mouse: true })).toMatchObject([
      { type: 'mouse', action: 'press', button: 0, x: 9, y: 4 },
      { type: 'mouse', action: 'wheelUp', x: 0, y: 0 },
      { type: 'mouse', action: 'release', button: 0 },
    ]);
  });

  it('an X10 mouse report is six bytes when enabled', () => {
    expect(decodeInput('\x1b[M !!', { mouse: true })).toMatchObject([{ type: 'mouse', action: 'press', x: 0, y: 0 }]);
  });
});
