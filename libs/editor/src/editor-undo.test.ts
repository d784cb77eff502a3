import { describe, expect, it } from 'vitest';
import { editorDriver } from './testing';

describe('undo and redo', () => {
  it('a typed run is undone in one step', () => {
    const d = editorDriver();
    d.type('hello');
    d.press('ctrlZ');
    expect(d.editor.isEmpty()).toBe(true);
  });

  it('typed text is undone a word at a time', () => {
    const d = editorDriver();
    d.type('hello big world');
    d.press('ctrlZ');
    expect(d.view()).toBe('hello big|');
    d.press('ctrlZ');
    expect(d.view()).toBe('hello|');
  });

  it('moving the cursor ends a typed run', () => {
    const d = editorDriver();
    d.type('ab');
    d.press('left', 'right');
    d.type('cd');
    d.press('ctrlZ');
    expect(d.view()).toBe('ab|');
  });

  it('a run of backspaces is one step, and a different edit starts a new one', () => {
    const d = editorDriver();
    d.type('abcdef');
    d.press('backspace', 'backspace', 'backspace');
    d.type('X');
    d.press('ctrlZ');
    expect(d.editor.text()).toBe('abc');
    d.press('ctrlZ');
    expect(d.editor.text()).toBe('abcdef');
  });

  it('redo re-applies what undo took back, with alt+z', () => {
    const d = editorDriver();
    d.type('one');
    d.press('ctrlJ');
    d.press('ctrlZ');
    expect(d.editor.text()).toBe('one');
    d.press('altZ');
    expect(d.view()).toBe('one\n|');
  });

  it('a new edit after undo drops the redo steps', () => {
    const d = editorDriver();
    d.type('a');
    d.press('ctrlJ');
    d.press('ctrlZ');
    d.type('b');
    expect(d.press('altZ')).toEqual({ kind: 'ignored' });
  });

  it('undo with nothing to undo is ignored', () => {
    expect(editorDriver().press('ctrlZ')).toEqual({ kind: 'ignored' });
  });

  it('submitting starts a fresh undo history', () => {
    const d = editorDriver();
    d.type('sent');
    d.press('enter');
    expect(d.press('ctrlZ')).toEqual({ kind: 'ignored' });
  });
});
