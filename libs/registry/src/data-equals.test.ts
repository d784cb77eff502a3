import { describe, expect, it } from 'vitest';
import { dataEquals } from './data-equals';

describe('dataEquals', () => {
  it('compares plain data structurally', () => {
    expect(dataEquals({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toBe(true);
    expect(dataEquals({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] })).toBe(false);
    expect(dataEquals({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(dataEquals([1, 2], [1, 2, 3])).toBe(false);
  });

  it('treats any two functions as equal', () => {
    expect(dataEquals({ run: () => 1 }, { run: () => 2 })).toBe(true);
    expect(dataEquals({ run: () => 1 }, { run: 'not a function' })).toBe(false);
  });

  it('compares other objects by reference', () => {
    const when = new Date(0);
    expect(dataEquals({ when }, { when })).toBe(true);
    expect(dataEquals({ when }, { when: new Date(0) })).toBe(false);
  });

  it('terminates on cyclic values', () => {
    const left: Record<string, unknown> = { n: 1 };
    left['self'] = left;
    const right: Record<string, unknown> = { n: 1 };
    right['self'] = right;
    expect(dataEquals(left, right)).toBe(true);
  });
});
