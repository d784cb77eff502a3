import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineView, type ViewMessage, type ViewState } from './define-view';
import type { ViewRecord } from './view-contract';
import { ViewReplica } from './view-replica';

const record = (viewId: string, state: number, version: number): ViewRecord => ({
  viewId,
  component: 'test.counter',
  state: { count: state },
  to: 'all',
  durable: false,
  version,
});
const counts = (replica: ViewReplica) => replica.list().map((view) => [view.viewId, view.state]);

describe('ViewReplica', () => {
  it('takes the open views from a snapshot and each newer state from a delta', () => {
    const replica = new ViewReplica();
    replica.applyOpen([record('a', 1, 1)]);
    replica.applyDelta({ type: 'view_state', viewId: 'a', state: { count: 2 }, to: 'all', version: 2 });
    expect(counts(replica)).toEqual([['a', { count: 2 }]]);
  });

  it('keeps a delta newer than a snapshot that arrives after it, and ignores an older delta', () => {
    const replica = new ViewReplica();
    replica.applyOpen([record('a', 1, 1)]);
    replica.applyDelta({ type: 'view_state', viewId: 'a', state: { count: 3 }, to: 'all', version: 3 });
    replica.applyOpen([record('a', 2, 2), record('b', 0, 4)]);
    replica.applyDelta({ type: 'view_state', viewId: 'a', state: { count: 0 }, to: 'all', version: 1 });
    expect(counts(replica)).toEqual([
      ['a', { count: 3 }],
      ['b', { count: 0 }],
    ]);
  });

  it('drops a closed view and an older snapshot cannot bring it back; a reopened one (newer) comes back', () => {
    const replica = new ViewReplica();
    replica.applyOpen([record('a', 1, 1)]);
    replica.applyDelta({ type: 'view_closed', viewId: 'a', reason: 'closed', to: 'all', version: 2 });
    replica.applyOpen([record('a', 1, 1)]);
    expect(replica.list()).toEqual([]);
    replica.applyOpen([record('a', 5, 3)]);
    expect(counts(replica)).toEqual([['a', { count: 5 }]]);
  });
});

describe('defineView', () => {
  it('types state and messages from the schemas declared once', () => {
    const Counter = defineView('test.counter', {
      state: z.object({ count: z.number() }),
      message: z.object({ add: z.number() }),
    });
    expectTypeOf<ViewState<typeof Counter>>().toEqualTypeOf<{ count: number }>();
    expectTypeOf<ViewMessage<typeof Counter>>().toEqualTypeOf<{ add: number }>();
    expect(Counter.component).toBe('test.counter');
  });

  it('refuses a component name that is not lower-case words', () => {
    const schemas = { state: z.null(), message: z.null() };
    expect(() => defineView('Not A Name', schemas)).toThrow(/Invalid view component "Not A Name"/);
  });
});
