import { describe, expect, it } from 'vitest';
import { decodeInput } from '../input/input-decoder';
import type { InputEvent } from '../input/events';
import { ACTIONS, DEFAULT_BINDINGS } from './actions';
import { parseKeyId } from './key-id';
import { createKeymap, defaultKeymap } from './keymap';
import { keymapFromJson } from './keymap-json';

const event = (input: string): InputEvent => {
  const [first] = decodeInput(input);
  if (first === undefined) throw new Error(`no event for ${JSON.stringify(input)}`);
  return first;
};

describe('default keymap', () => {
  it('every default key is a normalized key id', () => {
    for (const action of ACTIONS) {
      for (const id of DEFAULT_BINDINGS[action]) expect(parseKeyId(id)._unsafeUnwrap(), action).toBe(id);
    }
  });

  it.each([
    ['\r', 'submit'],
    ['\n', 'newline'],
    ['\x1b[13;2u', 'newline'],
    ['\x1b[27;2;13~', 'newline'],
    ['\x1b\r', 'followUp'],
    ['\x1b[1;3A', 'dequeue'],
    ['\x1b\x1b[A', 'dequeue'],
    ['\x03', 'clear'],
    ['\x04', 'quit'],
    ['\x07', 'externalEditor'],
    ['\x0f', 'expandTools'],
    ['\x0c', 'modelPicker'],
    ['\x14', 'thinkingCycle'],
    ['\x1b[5~', 'pageUp'],
    ['\x1b[6~', 'pageDown'],
    ['\x1b[F', 'scrollToEnd'],
    ['\x1b[A', 'historyPrevious'],
    ['\x17', 'deleteWordBackward'],
    ['\x1b\x7f', 'deleteWordBackward'],
    ['\x0b', 'deleteToLineEnd'],
    ['\x1b[1;5C', 'cursorWordRight'],
  ] as const)('%j means %s', (input, action) => {
    expect(defaultKeymap.matches(event(input), action)).toBe(true);
  });

  it('a lone Esc (after the timeout) is interrupt', () => {
    expect(defaultKeymap.actionsFor(event('\x1b'))).toEqual(['interrupt']);
  });

  it('Enter is submit only, never newline too', () => {
    expect(defaultKeymap.actionsFor(event('\r'))).toEqual(['submit']);
  });

  it('one key may serve an app action and an editor action', () => {
    expect(defaultKeymap.actionsFor(event('\x1b[F'))).toEqual(['scrollToEnd', 'cursorLineEnd']);
  });

  it('a paste matches no action', () => {
    expect(defaultKeymap.actionsFor({ type: 'paste', text: 'x' })).toEqual([]);
  });

  it('hints show the first bound key', () => {
    expect(defaultKeymap.hint('interrupt')).toBe('escape');
    expect(defaultKeymap.hint('newline')).toBe('ctrl+j');
  });
});

describe('keymapFromJson', () => {
  it('overrides named actions and keeps the other defaults', () => {
    const keymap = keymapFromJson('{ "modelPicker": "Ctrl+P", "newline": ["shift+enter", "ctrl+j"] }')._unsafeUnwrap();
    expect(keymap.keysFor('modelPicker')).toEqual(['ctrl+p']);
    expect(keymap.hint('newline')).toBe('shift+enter');
    expect(keymap.keysFor('submit')).toEqual(['enter']);
    expect(keymap.matches(event('\x10'), 'modelPicker')).toBe(true);
    expect(keymap.matches(event('\x0c'), 'modelPicker')).toBe(false);
  });

  it('an empty list unbinds an action', () => {
    const keymap = keymapFromJson({ quit: [] })._unsafeUnwrap();
    expect(keymap.keysFor('quit')).toEqual([]);
    expect(keymap.hint('quit')).toBe('');
    expect(keymap.matches(event('\x04'), 'quit')).toBe(false);
  });

  it('an unknown action is an error value naming it and listing the actions there are', () => {
    const error = keymapFromJson({ sumbit: 'enter' })._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'unknown_action', action: 'sumbit' });
    expect(error.message).toContain('(the actions: submit, newline, followUp,');
    expect(error.message).toContain('externalEditor');
  });

  it('an unparsable key name is an error value naming the action and the key', () => {
    expect(keymapFromJson({ submit: ['enter', 'ctrl+entr'] })._unsafeUnwrapErr()).toMatchObject({
      code: 'invalid_key',
      action: 'submit',
      key: 'ctrl+entr',
    });
  });

  it('malformed files are error values, never throws', () => {
    expect(keymapFromJson('{ nope')._unsafeUnwrapErr().code).toBe('invalid_json');
    expect(keymapFromJson('[]')._unsafeUnwrapErr().code).toBe('not_an_object');
    expect(keymapFromJson({ submit: 13 })._unsafeUnwrapErr().code).toBe('invalid_binding');
  });

  it('round-trips through toJson', () => {
    const table = createKeymap({ undo: ['ctrl+_'] }).toJson();
    expect(keymapFromJson(table)._unsafeUnwrap().toJson()).toEqual(table);
  });
});
