import { describe, expect, it } from 'vitest';
import { editorDriver } from './testing';

describe('typing and moving', () => {
  it('typed text appears at the cursor', () => {
    const d = editorDriver();
    d.type('helo');
    d.press('left');
    d.type('l');
    expect(d.view()).toBe('hell|o');
    expect(d.editor.text()).toBe('hello');
  });

  it('left and right step over an emoji and a combining mark as one character', () => {
    const d = editorDriver();
    d.type('a🐢e\u0301b');
    d.press('left', 'left');
    expect(d.view()).toBe('a🐢|e\u0301b');
    d.press('left');
    expect(d.view()).toBe('a|🐢e\u0301b');
    expect(d.editor.render(80).cursor).toEqual({ row: 0, col: 1 });
    d.press('right');
    expect(d.editor.render(80).cursor).toEqual({ row: 0, col: 3 });
  });

  it('an emoji family and a flag are single steps', () => {
    const d = editorDriver();
    d.type('👨‍👩‍👧🇫🇷');
    d.press('left');
    expect(d.view()).toBe('👨‍👩‍👧|🇫🇷');
    d.press('backspace');
    expect(d.editor.text()).toBe('🇫🇷');
  });

  it('Home/End and Ctrl+A/Ctrl+E go to the start and end of the logical line', () => {
    const d = editorDriver();
    d.type('one');
    d.press('ctrlJ');
    d.type('two words');
    d.press('home');
    expect(d.view()).toBe('one\n|two words');
    d.press('ctrlE');
    expect(d.view()).toBe('one\ntwo words|');
    d.press('ctrlA');
    expect(d.view()).toBe('one\n|two words');
    d.press('end');
    expect(d.view()).toBe('one\ntwo words|');
  });

  it('word motions jump over words, punctuation runs and spaces', () => {
    const d = editorDriver();
    d.type('let x = foo.bar(1);');
    d.press('ctrlLeft');
    expect(d.view()).toBe('let x = foo.bar(1|);');
    d.press('ctrlLeft');
    expect(d.view()).toBe('let x = foo.bar(|1);');
    d.press('ctrlLeft', 'ctrlLeft');
    expect(d.view()).toBe('let x = foo.|bar(1);');
    d.press('altB', 'ctrlLeft');
    expect(d.view()).toBe('let x = |foo.bar(1);');
    d.press('home', 'ctrlRight');
    expect(d.view()).toBe('let| x = foo.bar(1);');
  });
});

describe('newlines and submit', () => {
  it('Enter submits the text and empties the editor', () => {
    const d = editorDriver();
    d.type('hello');
    expect(d.press('enter')).toEqual({ kind: 'submit', text: 'hello', action: 'submit' });
    expect(d.editor.isEmpty()).toBe(true);
  });

  it('Ctrl+J and Shift+Enter insert a newline instead of submitting', () => {
    const d = editorDriver();
    d.type('a');
    expect(d.press('ctrlJ')).toEqual({ kind: 'changed' });
    d.type('b');
    d.press('shiftEnter');
    d.type('c');
    expect(d.editor.text()).toBe('a\nb\nc');
  });

  it('Alt+Enter submits as a follow-up', () => {
    const d = editorDriver();
    d.type('later');
    expect(d.press('altEnter')).toEqual({ kind: 'submit', text: 'later', action: 'followUp' });
  });

  it('Enter on an empty or blank editor is ignored, so the host may use it', () => {
    const d = editorDriver();
    expect(d.press('enter')).toEqual({ kind: 'ignored' });
    d.type('  ');
    expect(d.press('enter')).toEqual({ kind: 'ignored' });
    expect(d.editor.text()).toBe('  ');
  });

  it('keys the editor does not bind are ignored and type nothing', () => {
    const d = editorDriver();
    expect(d.send('\x0f')).toEqual([{ kind: 'ignored' }]); // ctrl+o: the host's
    expect(d.send('\x1b[15~')).toEqual([{ kind: 'ignored' }]); // f5
    expect(d.editor.isEmpty()).toBe(true);
  });
});

describe('deleting', () => {
  it('Backspace and Delete remove one character, an emoji whole', () => {
    const d = editorDriver();
    d.type('ab🐢c');
    d.press('left', 'backspace');
    expect(d.view()).toBe('ab|c');
    d.press('home', 'delete');
    expect(d.view()).toBe('|bc');
  });

  it('Ctrl+W and Alt+Backspace delete the word before the cursor', () => {
    const d = editorDriver();
    d.type('git commit --amend');
    d.press('ctrlW');
    expect(d.editor.text()).toBe('git commit --');
    d.press('altBackspace');
    expect(d.editor.text()).toBe('git commit ');
    d.press('ctrlW');
    expect(d.editor.text()).toBe('git ');
  });

  it('Ctrl+K deletes to the line end, and joins the next line when at the end', () => {
    const d = editorDriver();
    d.type('first line');
    d.press('ctrlJ');
    d.type('second');
    d.press('up', 'home', 'ctrlRight', 'ctrlK');
    expect(d.editor.text()).toBe('first\nsecond');
    d.press('ctrlK');
    expect(d.editor.text()).toBe('firstsecond');
  });

  it('Ctrl+U deletes to the line start', () => {
    const d = editorDriver();
    d.type('keep');
    d.press('ctrlJ');
    d.type('drop this');
    d.press('ctrlU');
    expect(d.view()).toBe('keep\n|');
  });

  it('Backspace at the start does nothing and says so', () => {
    const d = editorDriver();
    expect(d.press('backspace')).toEqual({ kind: 'ignored' });
  });
});

describe('clear, setText and the external editor flow', () => {
  it('clear empties the editor and undo brings the text back', () => {
    const d = editorDriver();
    d.type('oops');
    d.editor.clear();
    expect(d.editor.isEmpty()).toBe(true);
    d.press('ctrlZ');
    expect(d.editor.text()).toBe('oops');
  });

  it('setText replaces the text with the cursor at the end, and is undoable', () => {
    const d = editorDriver();
    d.type('draft');
    d.editor.setText('edited\nin $EDITOR\n');
    expect(d.view()).toBe('edited\nin $EDITOR\n|');
    d.press('ctrlZ');
    expect(d.editor.text()).toBe('draft');
  });

  it('setText drops escape sequences and control characters but keeps tabs and newlines', () => {
    const d = editorDriver();
    d.editor.setText('a\x1b[31mb\x07\tc\r\nd');
    expect(d.editor.text()).toBe('ab\tc\nd');
  });
});
