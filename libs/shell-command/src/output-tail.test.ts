import { describe, expect, it } from 'vitest';
import { OutputTail } from './output-tail';

describe('OutputTail', () => {
  it('keeps everything while under its bounds', () => {
    const tail = new OutputTail(100, 10);
    tail.push(Buffer.from('one\ntw'));
    tail.push(Buffer.from('o\n'));
    expect(tail.output()).toEqual({ text: 'one\ntwo', truncated: false, totalBytes: 8 });
  });

  it('keeps the last bytes, starting at a whole line, however many chunks arrived', () => {
    const tail = new OutputTail(10, 100);
    for (let line = 1; line <= 1000; line += 1) tail.push(Buffer.from(`${line}\n`));
    expect(tail.output()).toEqual({ text: '999\n1000', truncated: true, totalBytes: 3893 });
  });

  it('keeps the last lines', () => {
    const tail = new OutputTail(1000, 2);
    tail.push(Buffer.from('a\nb\nc\n'));
    expect(tail.output()).toMatchObject({ text: 'b\nc', truncated: true });
  });

  it('never starts with half a character when one long line is cut', () => {
    const tail = new OutputTail(7, 100);
    tail.push(Buffer.from('ééééééé'));
    const { text } = tail.output();
    expect(text).not.toContain('\uFFFD');
    expect(text).toMatch(/^é+$/);
  });
});
