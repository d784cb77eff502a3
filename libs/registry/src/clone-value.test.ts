import { describe, expect, it } from 'vitest';
import { cloneValue } from './clone-value';

describe('cloneValue', () => {
  it('copies plain objects and arrays deeply', () => {
    const original = { list: [{ name: 'a' }], nested: { depth: 1 } };
    const copy = cloneValue(original);
    expect(copy).toEqual(original);
    expect(copy.list).not.toBe(original.list);
    expect(copy.list[0]).not.toBe(original.list[0]);
    expect(copy.nested).not.toBe(original.nested);
  });

  it('keeps functions and non-plain objects by reference', () => {
    const run = () => 'ran';
    const handle = new Map<string, number>();
    const when = new Date(0);
    const copy = cloneValue({ run, handle, when });
    expect(copy.run).toBe(run);
    expect(copy.handle).toBe(handle);
    expect(copy.when).toBe(when);
  });

  it('preserves cycles and shared references', () => {
    const shared = { n: 1 };
    const original: Record<string, unknown> = { left: shared, right: shared };
    original['self'] = original;
    const copy = cloneValue(original);
    expect(copy['self']).toBe(copy);
    expect(copy['left']).toBe(copy['right']);
    expect(copy['left']).not.toBe(shared);
  });
});
