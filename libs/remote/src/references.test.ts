import { afterEach, describe, expect, it, vi } from 'vitest';
import { RemoteError } from './errors';
import { ReferenceTable, SETTLED_REFERENCE_GRACE_MS } from './references';
import { ExportJobExposure } from './testing/notes-service';

const exposure = ExportJobExposure as never;

afterEach(() => {
  vi.useRealTimers();
});

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve: () => void = () => undefined;
  let reject: (error: Error) => void = () => undefined;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('ReferenceTable', () => {
  it('hands out distinct, unguessable ids', () => {
    const table = new ReferenceTable();
    const ids = new Set(Array.from({ length: 100 }, () => table.add(exposure, {}).id));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^ref_[A-Za-z0-9_-]{22}$/);
  });

  it('answers stale_reference for a made-up, non-string or released id', () => {
    const table = new ReferenceTable();
    const { id } = table.add(exposure, {});
    table.release(id);
    for (const bad of [id, 'ref_madeup', 42, undefined, { id }]) {
      expect(() => table.get(bad)).toThrow(RemoteError);
      expect(() => table.get(bad)).toThrow(expect.objectContaining({ code: 'stale_reference' }));
    }
  });

  it("treats another table's id as unknown", () => {
    const mine = new ReferenceTable();
    const theirs = new ReferenceTable();
    const { id } = theirs.add(exposure, {});
    expect(() => mine.get(id)).toThrow(expect.objectContaining({ code: 'stale_reference' }));
  });

  it('releases once and reports each release', () => {
    const released: string[] = [];
    const table = new ReferenceTable((id) => released.push(id));
    const { id } = table.add(exposure, {});
    expect(table.release(id)).toBe(true);
    expect(table.release(id)).toBe(false);
    expect(released).toEqual([id]);
    expect(table.size).toBe(0);
  });

  it('keeps an object without a settled promise until it is released', async () => {
    vi.useFakeTimers();
    const table = new ReferenceTable();
    const { id } = table.add(exposure, {});
    await vi.advanceTimersByTimeAsync(10 * SETTLED_REFERENCE_GRACE_MS);
    expect(table.get(id).id).toBe(id);
  });

  it('releases a settled object one grace period after it settles, not before', async () => {
    vi.useFakeTimers();
    const released: string[] = [];
    const table = new ReferenceTable((id) => released.push(id));
    const settled = deferred();
    const { id } = table.add(exposure, { settled: settled.promise });
    await vi.advanceTimersByTimeAsync(2 * SETTLED_REFERENCE_GRACE_MS);
    expect(table.size).toBe(1);
    settled.resolve();
    await vi.advanceTimersByTimeAsync(SETTLED_REFERENCE_GRACE_MS - 1);
    expect(table.get(id).id).toBe(id);
    await vi.advanceTimersByTimeAsync(1);
    expect(released).toEqual([id]);
    expect(() => table.get(id)).toThrow(expect.objectContaining({ code: 'stale_reference' }));
  });

  it('releases an object whose settled promise rejects the same way', async () => {
    vi.useFakeTimers();
    const table = new ReferenceTable();
    const settled = deferred();
    table.add(exposure, { settled: settled.promise });
    settled.reject(new Error('job failed'));
    await vi.advanceTimersByTimeAsync(SETTLED_REFERENCE_GRACE_MS);
    expect(table.size).toBe(0);
  });

  it('cancels the lifetime release of an object released by hand, and reports one release', async () => {
    vi.useFakeTimers();
    const released: string[] = [];
    const table = new ReferenceTable((id) => released.push(id));
    const { id } = table.add(exposure, { settled: Promise.resolve() });
    await vi.advanceTimersByTimeAsync(1);
    table.release(id);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(SETTLED_REFERENCE_GRACE_MS);
    expect(released).toEqual([id]);
  });

  it('clears every reference and cancels every pending release', async () => {
    vi.useFakeTimers();
    const released: string[] = [];
    const table = new ReferenceTable((id) => released.push(id));
    table.add(exposure, { settled: Promise.resolve() });
    table.add(exposure, {});
    await vi.advanceTimersByTimeAsync(1);
    table.clear();
    expect(released).toHaveLength(2);
    expect(vi.getTimerCount()).toBe(0);
  });
});
