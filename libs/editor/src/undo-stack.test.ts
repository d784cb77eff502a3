import { describe, expect, it } from 'vitest';
import { UndoStack } from './undo-stack';

describe('UndoStack', () => {
  it('changes of the same kind coalesce until the run is broken', () => {
    const stack = new UndoStack<string>();
    stack.record('', 'type');
    stack.record('a', 'type');
    stack.breakRun();
    stack.record('ab', 'type');
    expect(stack.undo('abc')).toBe('ab');
    expect(stack.undo('ab')).toBe('');
    expect(stack.undo('')).toBeUndefined();
  });

  it('changes without a kind never coalesce', () => {
    const stack = new UndoStack<number>();
    stack.record(1);
    stack.record(2);
    expect(stack.undo(3)).toBe(2);
  });

  it('redo walks forward again, and a new change clears it', () => {
    const stack = new UndoStack<number>();
    stack.record(1);
    expect(stack.undo(2)).toBe(1);
    expect(stack.canRedo).toBe(true);
    expect(stack.redo(1)).toBe(2);
    stack.undo(2);
    stack.record(1);
    expect(stack.canRedo).toBe(false);
  });

  it('keeps at most `limit` steps, dropping the oldest', () => {
    const stack = new UndoStack<number>(2);
    for (const n of [1, 2, 3]) stack.record(n);
    expect(stack.undo(4)).toBe(3);
    expect(stack.undo(3)).toBe(2);
    expect(stack.undo(2)).toBeUndefined();
  });
});
