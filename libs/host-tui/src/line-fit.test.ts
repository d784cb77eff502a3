import { describe, expect, it } from 'vitest';
import { truncate } from '@pi/terminal';
import { LineFit } from './line-fit';

const RED = '\x1b[31m';
const RESET = '\x1b[39m';
const LINES = [
  'short',
  'a line longer than the twenty columns of this frame',
  `${RED}styled and longer than twenty columns${RESET}`,
  '你好你好你好你好你好你好',
  '👍🏽 🇯🇵 ❤️ and a tail that does not fit',
  '',
];

describe('cutting a frame’s lines to the width', () => {
  it('gives what truncate gives, in the frame that first cuts a line and in the frames after it', () => {
    const lines = new LineFit();
    for (let frame = 0; frame < 3; frame++) {
      lines.nextFrame(20);
      for (const line of LINES) expect(lines.fit(line, 20)).toBe(truncate(line, 20));
    }
  });

  it('cuts again at a new width instead of answering the old width’s cut', () => {
    const lines = new LineFit();
    lines.nextFrame(20);
    for (const line of LINES) lines.fit(line, 20);
    lines.nextFrame(8);
    for (const line of LINES) expect(lines.fit(line, 8)).toBe(truncate(line, 8));
    lines.nextFrame(20);
    for (const line of LINES) expect(lines.fit(line, 20)).toBe(truncate(line, 20));
  });

  it('cuts a line to another width than the frame’s without remembering it', () => {
    const lines = new LineFit();
    lines.nextFrame(20);
    const long = LINES[1] as string;
    expect(lines.fit(long, 10)).toBe(truncate(long, 10));
    expect(lines.fit(long, 20)).toBe(truncate(long, 20));
    expect(lines.fit(long, 10)).toBe(truncate(long, 10));
  });

  it('cuts a line once while frames keep showing it, and again after a frame that did not', () => {
    const cut: string[] = [];
    const lines = new LineFit((line, width) => {
      cut.push(line);
      return truncate(line, width);
    });
    lines.nextFrame(20);
    lines.fit('kept', 20);
    lines.fit('kept', 20);
    lines.fit('left out', 20);
    lines.nextFrame(20);
    lines.fit('kept', 20);
    lines.nextFrame(20);
    lines.fit('kept', 20);
    lines.fit('left out', 20);
    expect(cut).toEqual(['kept', 'left out', 'left out']);
  });
});
