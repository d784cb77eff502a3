import { describe, expect, it } from 'vitest';
import { keyId } from '../keys/key-id';
import { decodeInput } from './input-decoder';

/** The key id each input decodes to, or the event type when it is not a key. */
function ids(input: string): string[] {
  return decodeInput(input).map((e) => (e.type === 'key' ? keyId(e) : e.type));
}

describe('control bytes', () => {
  it.each([
    ['\r', 'enter'],
    ['\n', 'ctrl+j'],
    ['\t', 'tab'],
    ['\x7f', 'backspace'],
    ['\x08', 'backspace'],
    ['\x01', 'ctrl+a'],
    ['\x03', 'ctrl+c'],
    ['\x04', 'ctrl+d'],
    ['\x07', 'ctrl+g'],
    ['\x0c', 'ctrl+l'],
    ['\x0f', 'ctrl+o'],
    ['\x14', 'ctrl+t'],
    ['\x17', 'ctrl+w'],
    ['\x1a', 'ctrl+z'],
    ['\x00', 'ctrl+space'],
    ['\x1f', 'ctrl+-'],
  ])('%j is %s', (input, id) => {
    expect(ids(input)).toEqual([id]);
  });

  it('Ctrl+J is a key of its own, not Enter; Ctrl+M is Enter', () => {
    expect(ids('\n\r')).toEqual(['ctrl+j', 'enter']);
  });

  it('one CR is one enter key (never return and enter)', () => {
    expect(decodeInput('\r')).toHaveLength(1);
  });
});

describe('Alt combinations', () => {
  it.each([
    ['\x1bb', 'alt+b'],
    ['\x1bB', 'alt+shift+b'],
    ['\x1b\x7f', 'alt+backspace'],
    ['\x1b\x08', 'alt+backspace'],
    ['\x1b\r', 'alt+enter'],
    ['\x1b\x01', 'ctrl+alt+a'],
    ['\x1b.', 'alt+.'],
    ['\x1b\x1b[A', 'alt+up'],
  ])('%j is %s', (input, id) => {
    expect(ids(input)).toEqual([id]);
  });

  it('an Alt key types no text', () => {
    expect(decodeInput('\x1bx')[0]).not.toHaveProperty('text');
  });
});

describe('CSI and SS3 sequences', () => {
  it.each([
    ['\x1b[A', 'up'],
    ['\x1b[B', 'down'],
    ['\x1b[C', 'right'],
    ['\x1b[D', 'left'],
    ['\x1bOA', 'up'],
    ['\x1b[1;5C', 'ctrl+right'],
    ['\x1b[1;5D', 'ctrl+left'],
    ['\x1b[1;3D', 'alt+left'],
    ['\x1b[1;2A', 'shift+up'],
    ['\x1b[1;6C', 'ctrl+shift+right'],
    ['\x1b[H', 'home'],
    ['\x1b[F', 'end'],
    ['\x1bOH', 'home'],
    ['\x1bOF', 'end'],
    ['\x1b[1~', 'home'],
    ['\x1b[4~', 'end'],
    ['\x1b[7~', 'home'],
    ['\x1b[8~', 'end'],
    ['\x1b[2~', 'insert'],
    ['\x1b[3~', 'delete'],
    ['\x1b[3;5~', 'ctrl+delete'],
    ['\x1b[5~', 'pageup'],
    ['\x1b[6~', 'pagedown'],
    ['\x1b[5;5~', 'ctrl+pageup'],
    ['\x1bOP', 'f1'],
    ['\x1bOS', 'f4'],
    ['\x1b[1;2P', 'shift+f1'],
    ['\x1b[15~', 'f5'],
    ['\x1b[17~', 'f6'],
    ['\x1b[24~', 'f12'],
    ['\x1b[15;5~', 'ctrl+f5'],
    ['\x1b[[A', 'f1'],
    ['\x1b[Z', 'shift+tab'],
    ['\x1b[a', 'shift+up'],
    ['\x1bOd', 'ctrl+left'],
    ['\x1b[7^', 'ctrl+home'],
    ['\x1bOM', 'enter'],
  ])('%j is %s', (input, id) => {
    expect(ids(input)).toEqual([id]);
  });

  it.each([['\x1b[99~'], ['\x1b[?2026;2$y'], ['\x1b[1;2;3X'], ['\x1bOz']])(
    'an unknown sequence %j is one unknown event',
    (input) => {
      expect(decodeInput(input)).toEqual([{ type: 'unknown', sequence: input }]);
    },
  );

  it('an unknown sequence between keys does not swallow them', () => {
    expect(ids('a\x1b[99~b')).toEqual(['a', 'unknown', 'b']);
  });

  it('a sequence broken by a control byte leaves that byte a key', () => {
    expect(ids('\x1b[1;\r')).toEqual(['unknown', 'enter']);
  });
});

describe('extended key encodings', () => {
  it.each([
    ['\x1b[13;2u', 'shift+enter'],
    ['\x1b[27;2;13~', 'shift+enter'],
    ['\x1b[13;3u', 'alt+enter'],
    ['\x1b[13u', 'enter'],
    ['\x1b[27u', 'escape'],
    ['\x1b[9;2u', 'shift+tab'],
    ['\x1b[127;5u', 'ctrl+backspace'],
    ['\x1b[105;5u', 'ctrl+i'],
    ['\x1b[97;6u', 'ctrl+shift+a'],
    ['\x1b[27;5;106~', 'ctrl+j'],
    ['\x1b[45;5u', 'ctrl+-'],
    ['\x1b[97;2u', 'shift+a'],
    ['\x1b[1;5A', 'ctrl+up'],
    ['\x1b[57414u', 'enter'],
  ])('%j is %s', (input, id) => {
    expect(ids(input)).toEqual([id]);
  });

  it('Shift+Enter is never typed into the editor as digits', () => {
    for (const input of ['\x1b[13;2u', '\x1b[27;2;13~']) {
      expect(decodeInput(input).some((e) => e.type === 'key' && e.text !== undefined)).toBe(false);
    }
  });

  it('a kitty key with shift types its shifted text', () => {
    expect(decodeInput('\x1b[97;2u')).toMatchObject([{ name: 'a', shift: true, text: 'A' }]);
    expect(decodeInput('\x1b[47:63;2u')).toMatchObject([{ name: '?', text: '?' }]);
    expect(decodeInput('\x1b[97;1;228u')).toMatchObject([{ name: 'ä', text: 'ä' }]);
  });

  it('key releases and modifier-only reports are consumed silently', () => {
    expect(decodeInput('\x1b[97;1:3u\x1b[57441;2u')).toEqual([]);
  });

  it('keys with Super or Hyper are unknown, so they trigger no action', () => {
    expect(ids('\x1b[13;9u')).toEqual(['unknown']);
  });
});

describe('replies to terminal queries', () => {
  it.each([
    ['\x1b]11;rgb:0000/0000/0000\x07'],
    ['\x1b]11;rgb:ffff/ffff/ffff\x1b\\'],
    ['\x1bP>|xterm(390)\x1b\\'],
    ['\x1b_Gi=1;OK\x1b\\'],
  ])('%j is one unknown event, never typed text', (input) => {
    expect(decodeInput(input)).toEqual([{ type: 'unknown', sequence: input }]);
  });

  it('a reply split across chunks is still one unknown event', () => {
    expect(decodeInput(['\x1b]11;rgb:', '1/2/3\x1b', '\\x'])).toMatchObject([{ type: 'unknown' }, { name: 'x' }]);
  });

  it('the introducer alone, after the timeout, is an Alt key', () => {
    expect(ids('\x1b]')).toEqual(['alt+]']);
    expect(ids('\x1bP')).toEqual(['alt+shift+p']);
  });
});
