import { describe, expect, it } from 'vitest';
import { editorDriver } from './testing';

function withHistory(...prompts: string[]) {
  const d = editorDriver();
  for (const prompt of prompts) {
    d.type(prompt);
    d.press('enter');
  }
  return d;
}

describe('history', () => {
  it('up on the first line recalls the previous prompt and down returns to the draft', () => {
    const d = withHistory('first', 'second');
    d.type('my draft');
    d.press('up');
    expect(d.editor.text()).toBe('second');
    d.press('up');
    expect(d.editor.text()).toBe('first');
    d.press('down');
    expect(d.editor.text()).toBe('second');
    d.press('down');
    expect(d.view()).toBe('my draft|');
  });

  it('up at the oldest entry moves to the start and stays there', () => {
    const d = withHistory('only');
    d.press('up');
    expect(d.view()).toBe('only|');
    d.press('up');
    expect(d.view()).toBe('|only');
    expect(d.press('up')).toEqual({ kind: 'ignored' });
  });

  it('up and down move between lines before they walk the history', () => {
    const d = withHistory('old');
    d.type('line one');
    d.press('ctrlJ');
    d.type('two');
    d.press('up');
    expect(d.view()).toBe('lin|e one\ntwo');
    d.press('up');
    expect(d.editor.text()).toBe('old');
  });

  it('up and down move between wrapped rows of one long line first', () => {
    const d = withHistory('old');
    d.type('aaaa bbbb cccc');
    d.editor.render(10); // the editor walks rows as last rendered
    expect(d.view(10)).toBe('aaaa bbbb \ncccc|');
    d.press('up');
    expect(d.view(10)).toBe('aaaa| bbbb \ncccc');
    d.press('up');
    expect(d.editor.text()).toBe('old');
  });

  it('a recalled multi-line prompt puts the cursor on its last line', () => {
    const d = withHistory('a\nb');
    d.press('up');
    expect(d.view()).toBe('a\nb|');
    d.press('up');
    expect(d.view()).toBe('a|\nb');
  });

  it('a prompt repeated in a row is recorded once', () => {
    const d = withHistory('same', 'same');
    expect(d.editor.historyEntries()).toEqual(['same']);
  });

  it('loaded history is walked the same way', () => {
    const d = editorDriver();
    d.editor.loadHistory(['from disk']);
    d.press('up');
    expect(d.editor.text()).toBe('from disk');
  });

  it('submitting a recalled prompt records it again as the newest', () => {
    const d = withHistory('one', 'two');
    d.press('up', 'up', 'enter');
    expect(d.editor.historyEntries()).toEqual(['one', 'two', 'one']);
  });
});

describe('goal column', () => {
  it('up and down keep the column the cursor started from across shorter lines', () => {
    const d = editorDriver();
    d.type('long line here');
    d.press('ctrlJ');
    d.type('ab');
    d.press('ctrlJ');
    d.type('another long one');
    d.press('home');
    for (let i = 0; i < 8; i++) d.press('right');
    expect(d.view()).toBe('long line here\nab\nanother |long one');
    d.press('up');
    expect(d.view()).toBe('long line here\nab|\nanother long one');
    d.press('up');
    expect(d.view()).toBe('long lin|e here\nab\nanother long one');
    d.press('down', 'down');
    expect(d.view()).toBe('long line here\nab\nanother |long one');
  });

  it('a wide character is never entered halfway: the column lands before it', () => {
    const d = editorDriver();
    d.type('中文');
    d.press('ctrlJ');
    d.type('abc');
    d.press('home', 'right');
    d.press('up');
    expect(d.editor.render(80).cursor).toEqual({ row: 0, col: 0 });
  });
});
