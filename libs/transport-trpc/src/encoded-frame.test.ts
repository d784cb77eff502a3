import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, withContextValue } from '@pi/context';
import {
  CALLER_IDENTITY,
  CLIENT_ID,
  ConnectionEndpoint,
  ServiceRegistry,
  createRemoteState,
  defineRemoteService,
  type RemoteState,
  type RemoteViewer,
  type WatchFrame,
} from '@pi/remote';
import { EncodedWatchFrame, dataFrame, dataHead, jsonText, payloadOf } from './encoded-frame';

const FRAMES: WatchFrame[] = [
  { kind: 'snapshot', seq: 0, state: { count: { revision: 3, value: { n: 1, tags: ['a', 'b'] } } } },
  {
    kind: 'snapshot',
    seq: 0,
    state: { '2': { revision: 0, value: 'two' }, a: { revision: 1, value: null }, '1': { revision: 2, value: [] } },
  },
  { kind: 'snapshot', seq: 0, state: {} },
  {
    kind: 'state',
    seq: 7,
    cell: 'count',
    revision: 12,
    value: { n: 2, text: 'quote " and \\ and \u2028 and é' },
    trace: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
  },
  { kind: 'state', seq: 1, cell: 'flag', revision: 1, value: null, trace: {} },
  { kind: 'state', seq: 2, cell: 'name', revision: 2, value: 'text', trace: { traceparent: undefined } },
  { kind: 'event', seq: 3, stream: 'marks', event: [1, 2.5, { deep: [true] }], trace: { tracestate: 'k=v' } },
  { kind: 'event', seq: 4, stream: 'ticks', event: 0, trace: undefined as never },
];

function encoded(frame: WatchFrame): EncodedWatchFrame {
  return new EncodedWatchFrame(frame, frame.seq, payloadOf(frame));
}

describe('encoding a watch frame once', () => {
  it('writes the very bytes JSON.stringify writes for the same envelope', () => {
    for (const frame of FRAMES) {
      for (const [id, jsonrpc] of [
        [4, undefined],
        ['sub-"1"', '2.0'],
      ] as const) {
        const envelope = { id, jsonrpc, result: { type: 'data', data: { json: frame } } };
        expect(dataFrame(dataHead(id, jsonrpc), encoded(frame))).toBe(JSON.stringify(envelope));
      }
    }
  });

  it('encodes a shared value once, whatever the number of connections', () => {
    const value = Object.freeze({ big: 'x'.repeat(1000) });
    expect(jsonText(value)).toBe(jsonText(value));
    expect(countStringify(() => Array.from({ length: 10 }, () => jsonText(value)))).toBe(0);
  });

  it('writes any other data frame as JSON.stringify would, an undefined result included', () => {
    for (const value of [{ value: 1 }, {}, null, 'text', undefined]) {
      const envelope = { id: 1, result: { type: 'data', data: { json: value } } };
      expect(dataFrame(dataHead(1, undefined), value)).toBe(JSON.stringify(envelope));
    }
  });
});

interface Teams {
  readonly board: RemoteState<{ team: string; items: string[] }>;
}

const Teams = defineRemoteService<Teams>('teams', {
  methods: {},
  state: { board: z.object({ team: z.string(), items: z.array(z.string()) }) },
  events: {},
});

/** The `state` frames two connections of the same team receive for one change of a projected board. */
function changeSeenByTwoOfATeam(keyed: boolean): WatchFrame[] {
  const teamOf = (viewer: RemoteViewer) => String(viewer.caller?.claims['team']);
  const board = createRemoteState(
    { team: '', items: [] as string[] },
    {
      projectFor: (value, viewer) => ({ team: teamOf(viewer), items: value.items }),
      ...(keyed ? { projectionKey: teamOf } : {}),
    },
  );
  const registry = new ServiceRegistry();
  registry.provide(Teams, { board });
  const frames: WatchFrame[] = [];
  for (const clientId of ['one', 'two']) {
    const connection = withContextValue(
      CALLER_IDENTITY,
      { principal: clientId, claims: { team: 'red' } },
      withContextValue(CLIENT_ID, clientId, BACKGROUND_CONTEXT),
    );
    new ConnectionEndpoint({ registry, clientId, connectionContext: connection }).watch(
      { service: 'teams' },
      (frame) => void (frame.kind === 'state' && frames.push(frame)),
    );
  }
  board.set({ team: '', items: ['x'.repeat(1000)] }, BACKGROUND_CONTEXT);
  return frames;
}

/** How many times `JSON.stringify` runs while each frame's payload is encoded for its connection. */
function stringifyCalls(frames: WatchFrame[]): number {
  return countStringify(() => frames.map(payloadOf));
}

/** How many times `JSON.stringify` runs during `work`. */
function countStringify(work: () => unknown): number {
  const original = JSON.stringify;
  let calls = 0;
  JSON.stringify = ((...args: Parameters<typeof original>) => {
    calls += 1;
    return original(...args);
  }) as typeof original;
  try {
    work();
  } finally {
    JSON.stringify = original;
  }
  return calls;
}

describe('encoding a projected value', () => {
  it('encodes a projection shared by key once for every connection with that key', () => {
    const frames = changeSeenByTwoOfATeam(true);
    const [one, two] = frames as Array<WatchFrame & { kind: 'state' }>;
    expect(two?.value).toBe(one?.value);
    expect(stringifyCalls(frames)).toBe(1);
    expect(payloadOf(frames[0] as WatchFrame)).toBe(
      JSON.stringify((frames[1] as WatchFrame & { kind: 'state' }).value),
    );
  });

  it('encodes an unkeyed projection once per connection', () => {
    const frames = changeSeenByTwoOfATeam(false);
    expect(frames).toHaveLength(2);
    expect(stringifyCalls(frames)).toBe(2);
  });
});
