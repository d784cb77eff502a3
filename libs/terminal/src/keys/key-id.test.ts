import { describe, expect, it } from 'vitest';
import { decodeInput } from '../input/input-decoder';
import { keyId, parseKeyId } from './key-id';

describe('keyId', () => {
  it('orders modifiers ctrl, alt, shift', () => {
    expect(keyId({ type: 'key', name: 'x', ctrl: true, alt: true, shift: true, sequence: '' })).toBe(
      'ctrl+alt+shift+x',
    );
  });
});

describe('parseKeyId', () => {
  it.each([
    ['Ctrl+Shift+X', 'ctrl+shift+x'],
    ['shift+ctrl+x', 'ctrl+shift+x'],
    ['esc', 'escape'],
    ['Return', 'enter'],
    ['PgDn', 'pagedown'],
    ['meta+b', 'alt+b'],
    ['A', 'shift+a'],
    ['Ctrl+P', 'ctrl+p'],
    ['Shift+A', 'shift+a'],
    ['ctrl++', 'ctrl++'],
    ['+', '+'],
    ['ctrl+-', 'ctrl+-'],
    ['shift+?', '?'],
    ['ctrl+shift+?', 'ctrl+shift+?'],
    ['🐢', '🐢'],
    ['F5', 'f5'],
  ])('%s is %s', (text, id) => {
    expect(parseKeyId(text)._unsafeUnwrap()).toBe(id);
  });

  it.each([['ctrl+'], [''], ['hyper+x'], ['ctrl+enterr'], ['ab'], ['ctrl+ ']])(
    '%j is refused with a reason',
    (text) => {
      const result = parseKeyId(text);
      expect(result.isErr()).toBe(true);
      expect(result._unsafeUnwrapErr().key).toBe(text);
    },
  );

  it('a key written as the user types it matches the decoded event', () => {
    const cases: [string, string][] = [
      ['Shift+Enter', '\x1b[13;2u'],
      ['alt+enter', '\x1b\r'],
      ['ctrl+j', '\n'],
      ['A', 'A'],
      ['?', '?'],
      ['shift+tab', '\x1b[Z'],
      ['ctrl+left', '\x1b[1;5D'],
    ];
    for (const [written, input] of cases) {
      const [event] = decodeInput(input);
      expect(event?.type === 'key' && keyId(event), written).toBe(parseKeyId(written)._unsafeUnwrap());
    }
  });
});
