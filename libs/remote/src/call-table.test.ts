import { describe, expect, it } from 'vitest';
import { DeferredAbort } from '@pi/context';
import { CallTable } from './call-table';

describe('CallTable', () => {
  it('finds, counts and removes a lone call and the calls beside it alike, in any order', () => {
    const table = new CallTable();
    const [a, b, c] = [new DeferredAbort(), new DeferredAbort(), new DeferredAbort()];
    table.add('a', a);
    table.add('b', b);
    expect([table.size, table.get('a'), table.get('b'), table.has('c')]).toEqual([2, a, b, false]);
    table.delete('a');
    expect([table.size, table.has('a'), table.get('b')]).toEqual([1, false, b]);
    table.add('c', c);
    expect([table.size, table.get('c'), table.get('b')]).toEqual([2, c, b]);
    table.delete('b');
    table.delete('unknown');
    expect([table.size, table.get('c'), table.has('b')]).toEqual([1, c, false]);
    table.delete('c');
    expect([table.size, table.get('c')]).toEqual([0, undefined]);
  });

  it('lists every abort, wherever it is kept', () => {
    const table = new CallTable();
    const aborts = [new DeferredAbort(), new DeferredAbort(), new DeferredAbort()];
    aborts.forEach((abort, index) => table.add(`${index}`, abort));
    expect(new Set(table.aborts())).toEqual(new Set(aborts));
    expect(new CallTable().aborts()).toEqual([]);
  });
});
