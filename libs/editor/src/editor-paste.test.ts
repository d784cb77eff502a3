import { describe, expect, it } from 'vitest';
import { editorDriver } from './testing';

const fortyLines = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n');

describe('pastes', () => {
  it('a small paste is inserted as text, newlines included, without submitting', () => {
    const d = editorDriver();
    expect(d.pasteText('one\rtwo')).toEqual({ kind: 'changed' });
    expect(d.view()).toBe('one\ntwo|');
  });

  it('a large paste shows as one marker and is expanded by text()', () => {
    const d = editorDriver();
    d.type('see ');
    d.pasteText(fortyLines);
    d.type(' ok');
    expect(d.view()).toBe('see [paste #1 +40 lines] ok|');
    expect(d.editor.text()).toBe(`see ${fortyLines} ok`);
  });

  it('counts the lines of a paste that ends with a newline as a person would', () => {
    const d = editorDriver();
    d.pasteText(`${Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join('\n')}\n`);
    expect(d.view()).toBe('[paste #1 +200 lines]|');
  });

  it('a long single-line paste shows its length', () => {
    const d = editorDriver();
    d.pasteText('x'.repeat(1500));
    expect(d.view()).toBe('[paste #1 1,500 chars]|');
  });

  it('the cursor skips a paste marker in one step', () => {
    const d = editorDriver();
    d.type('a');
    d.pasteText(fortyLines);
    d.type('b');
    d.press('left', 'left');
    expect(d.view()).toBe('a|[paste #1 +40 lines]b');
    d.press('right');
    expect(d.view()).toBe('a[paste #1 +40 lines]|b');
  });

  it('backspace after a paste marker deletes the whole paste', () => {
    const d = editorDriver();
    d.type('keep ');
    d.pasteText(fortyLines);
    d.press('backspace');
    expect(d.editor.text()).toBe('keep ');
    d.press('ctrlZ');
    expect(d.editor.text()).toBe(`keep ${fortyLines}`);
  });

  it('delete before a marker and a word deletion remove it whole too', () => {
    const d = editorDriver();
    d.pasteText(fortyLines);
    d.press('home', 'delete');
    expect(d.editor.isEmpty()).toBe(true);
    d.type('x ');
    d.pasteText(fortyLines);
    d.press('ctrlW');
    expect(d.editor.text()).toBe('x ');
  });

  it('each large paste gets its own number', () => {
    const d = editorDriver();
    d.pasteText(fortyLines);
    d.pasteText(fortyLines + '\nmore');
    expect(d.view()).toBe('[paste #1 +40 lines][paste #2 +41 lines]|');
  });

  it('submitting sends the pasted text in full', () => {
    const d = editorDriver();
    d.pasteText(fortyLines);
    expect(d.press('enter')).toEqual({ kind: 'submit', text: fortyLines, action: 'submit' });
  });

  it('a recalled prompt shows its paste as a marker again', () => {
    const d = editorDriver();
    d.pasteText(fortyLines);
    d.press('enter');
    d.press('up');
    expect(d.view()).toBe('[paste #1 +40 lines]|');
    expect(d.editor.text()).toBe(fortyLines);
  });

  it('a paste that comes back unchanged from the external editor stays a marker', () => {
    const d = editorDriver();
    d.type('before ');
    d.pasteText(fortyLines);
    d.editor.setText(`${d.editor.text()}\nadded in the editor`);
    expect(d.view()).toBe('before [paste #1 +40 lines]\nadded in the editor|');
  });

  it('the thresholds are options', () => {
    const d = editorDriver({ pasteMaxLines: 1, pasteMaxChars: 5 });
    d.pasteText('a\nb');
    expect(d.view()).toBe('[paste #1 +2 lines]|');
  });

  it('the marker label is styled by the host', () => {
    const d = editorDriver({ markerStyle: (label) => `<${label}>` });
    d.pasteText(fortyLines);
    expect(d.editor.render(80).lines).toEqual(['<[paste #1 +40 lines]>']);
  });

  it('pasted escape sequences never reach the screen', () => {
    const d = editorDriver();
    d.pasteText('red \x1b[31mtext\x1b[0m');
    expect(d.editor.text()).toBe('red text');
  });

  it('a pasted character that would pose as a marker is replaced', () => {
    const d = editorDriver();
    d.pasteText(fortyLines);
    d.pasteText('\u{f0001}');
    expect(d.editor.text()).toBe(`${fortyLines}\ufffd`);
  });
});
