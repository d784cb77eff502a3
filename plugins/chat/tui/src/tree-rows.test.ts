import { describe, expect, it } from 'vitest';
import { forkRows, treeRows } from './tree-rows';
import { twoBranchNodes } from './testing/stand-in-tree';

describe('treeRows', () => {
  it('draws the messages depth first, a chain at one indent, each continuation of a branch point one level deeper', () => {
    expect(treeRows(twoBranchNodes()).map((row) => row.text)).toEqual([
      '● you: one',
      '● ai: A1',
      '    ├─ you: two',
      '       ai: A2',
      '●   └─ you: two, again',
      '●      ai: A3  ← here',
    ]);
  });

  it('goes back before the run of a message that started one, and to the end of the run of any other', () => {
    const targets = Object.fromEntries(treeRows(twoBranchNodes()).map((row) => [row.node.id, row.target]));
    expect(targets).toEqual({
      u1: { kind: 'before', entryId: null },
      a1: { kind: 'end', entryId: 'e1' },
      u2: { kind: 'before', entryId: 'e1' },
      a2: { kind: 'end', entryId: 'e2' },
      u3: { kind: 'before', entryId: 'e1' },
      a3: { kind: 'end', entryId: 'e3' },
    });
  });

  it('says a running run has no end to go to yet', () => {
    const running = twoBranchNodes().filter((node) => node.id !== 'e3');
    expect(treeRows(running).find((row) => row.node.id === 'a3')?.target).toEqual({
      kind: 'none',
      reason: 'Its run has not ended yet',
    });
  });

  it('keeps rows apart when two read the same', () => {
    const nodes = twoBranchNodes().map((node) => (node.id === 'u3' ? { ...node, text: 'two' } : node));
    const texts = treeRows(nodes).map((row) => row.text);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('cuts a long message to one short label', () => {
    const nodes = twoBranchNodes().map((node) => (node.id === 'u1' ? { ...node, text: 'x'.repeat(200) } : node));
    expect(treeRows(nodes)[0]?.text.length).toBeLessThan(90);
  });
});

describe('forkRows', () => {
  it('offers the current branch’s prompts, newest first, each forking before its run', () => {
    expect(forkRows(twoBranchNodes()).map((row) => [row.text, row.target])).toEqual([
      ['you: two, again', { kind: 'before', entryId: 'e1' }],
      ['you: one', { kind: 'before', entryId: null }],
    ]);
  });
});
