import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT } from '@pi/context';
import {
  createRemoteEvents,
  createRemoteState,
  defineRemoteService,
  type RemoteEvents,
  type RemoteState,
} from '@pi/remote';
import { TRANSPORTS, startRpcFixture, type RpcFixture } from '@pi/test-support';

interface Value {
  text: string;
  list: Array<number | string | null | boolean>;
  viewer: string;
}

interface Board {
  readonly shared: RemoteState<Value>;
  readonly projected: RemoteState<Value>;
  readonly posts: RemoteEvents<Value>;
}

const valueSchema = z.object({
  text: z.string(),
  list: z.array(z.union([z.number(), z.string(), z.null(), z.boolean()])),
  viewer: z.string(),
});

const Board = defineRemoteService<Board>('board', {
  methods: {},
  state: { shared: valueSchema, projected: valueSchema },
  events: { posts: valueSchema },
});

/** Strings and numbers whose JSON text has escapes and exponents, so a splice that re-encoded them would show. */
const tricky = (n: number): Value => ({
  text: `quote " backslash \\ line\nsep \u2028 tab\t é 😀 <${n}>`,
  list: [n, -1.5e-7, 1e21, 0.1 + 0.2, 'ünïcode', null, true],
  viewer: '',
});

const CLIENTS = 3;

describe.each(TRANSPORTS)('one change encoded once for every subscriber, over %s', (kind) => {
  let fixture: RpcFixture;
  let shared: ReturnType<typeof createRemoteState<Value>>;
  let projected: ReturnType<typeof createRemoteState<Value>>;
  let posts: ReturnType<typeof createRemoteEvents<Value>>;

  beforeEach(async () => {
    shared = createRemoteState(tricky(0));
    projected = createRemoteState(tricky(0), {
      projectFor: (value, viewer) => ({ ...value, viewer: viewer.clientId }),
    });
    posts = createRemoteEvents<Value>();
    fixture = await startRpcFixture(kind, {
      provide: (registry) => registry.provide(Board, { shared, projected, posts }),
    });
  });
  afterEach(async () => fixture.close());

  it('sends the bytes JSON.stringify would, and each connection its own projection', async () => {
    const boards = await Promise.all(Array.from({ length: CLIENTS }, async () => (await fixture.connect()).use(Board)));
    const heard: Value[][] = boards.map(() => []);
    boards.forEach((board, index) => board.posts.subscribe((post) => void heard[index]?.push(post)));
    for (let n = 1; n <= 5; n++) {
      shared.set(tricky(n), BACKGROUND_CONTEXT);
      projected.set(tricky(n), BACKGROUND_CONTEXT);
      posts.emit(tricky(n), BACKGROUND_CONTEXT);
    }
    const settled = () =>
      boards.every((board) => board.shared.value.list[0] === 5 && board.projected.value.list[0] === 5) &&
      heard.every((posts) => posts.length === 5);
    for (let wait = 0; !settled() && wait < 500; wait++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled()).toBe(true);

    const watchFrames = fixture.frames.received.filter((text) => text.includes('"kind":'));
    expect(watchFrames.length).toBeGreaterThanOrEqual(CLIENTS * 16);
    // The old encoding was JSON.stringify of the same envelope: parsing and re-encoding changes nothing.
    for (const text of watchFrames) expect(text).toBe(JSON.stringify(JSON.parse(text)));
    for (const board of boards) expect(board.shared.value).toEqual(tricky(5));
    const viewers = boards.map((board) => board.projected.value.viewer);
    expect(new Set(viewers).size).toBe(CLIENTS);
    expect(viewers.every((viewer) => viewer.length > 0)).toBe(true);
    for (const posts of heard) expect(posts).toEqual([1, 2, 3, 4, 5].map(tricky));
  });
});
