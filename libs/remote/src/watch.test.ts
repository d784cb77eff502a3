import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { JsonValue } from '@pi/json';
import { createRemoteEvents } from './events';
import type { AnyExposure } from './exposure';
import type { WatchFrame } from './protocol';
import { createRemoteState } from './state';
import type { RemoteViewer } from './viewer';
import { watchObject } from './watch';

afterEach(() => vi.restoreAllMocks());

interface Board {
  items: Array<{ team: string; text: string }>;
}

interface Post {
  team: string;
  text: string;
}

const exposure: AnyExposure = {
  methods: {},
  state: { board: z.object({ items: z.array(z.object({ team: z.string(), text: z.string() })) }) },
  events: { posts: z.object({ team: z.string(), text: z.string() }) },
};

function viewer(clientId: string, team: string): RemoteViewer {
  return { clientId, caller: { principal: clientId, claims: { team } } };
}

const teamOf = (viewer: RemoteViewer) => String(viewer.caller?.claims['team']);

/** A board and a post stream, each projected to the viewer's team, counting projections. */
function teamBoard(options: { keyed: boolean; throwFor?: string }) {
  const calls = { state: 0, events: 0 };
  const board = createRemoteState<Board>(
    { items: [] },
    {
      projectFor: (value, viewer) => {
        calls.state += 1;
        // Throws on content only, so a watch of the empty board still starts.
        if (teamOf(viewer) === options.throwFor && value.items.length > 0) throw new Error('projection bug');
        return { items: value.items.filter((item) => item.team === teamOf(viewer)) };
      },
      ...(options.keyed ? { projectionKey: teamOf } : {}),
    },
  );
  const posts = createRemoteEvents<Post>({
    projectFor: (post, viewer) => {
      calls.events += 1;
      if (teamOf(viewer) === options.throwFor) throw new Error('projection bug');
      return post.team === teamOf(viewer) ? post : undefined;
    },
    ...(options.keyed ? { projectionKey: teamOf } : {}),
  });
  const object = { board, posts } as unknown as Record<string, unknown>;
  return { board, posts, object, calls };
}

function watchAs(object: Record<string, unknown>, viewers: RemoteViewer[]): WatchFrame[][] {
  return viewers.map((viewer) => {
    const frames: WatchFrame[] = [];
    watchObject(exposure, object, (frame) => frames.push(frame), viewer);
    return frames;
  });
}

const red = [viewer('a', 'red'), viewer('b', 'red'), viewer('c', 'red')];
const blue = [viewer('d', 'blue'), viewer('e', 'blue')];

function valueOf(frame: WatchFrame | undefined): JsonValue | undefined {
  if (frame?.kind === 'state') return frame.value;
  if (frame?.kind === 'event') return frame.event;
  if (frame?.kind === 'snapshot') return frame.state['board']?.value;
  return undefined;
}

describe('projections shared by key', () => {
  it('projects each change once per distinct key, whatever the number of watchers', () => {
    const { board, posts, object, calls } = teamBoard({ keyed: true });
    watchAs(object, [...red, ...blue]);
    expect(calls.state).toBe(2);
    calls.state = 0;
    board.set({ items: [{ team: 'red', text: 'one' }] }, BACKGROUND_CONTEXT);
    expect(calls.state).toBe(2);
    posts.emit({ team: 'blue', text: 'hi' }, BACKGROUND_CONTEXT);
    expect(calls.events).toBe(2);
  });

  it('hands every connection with the same key the very same frozen value, in snapshots, changes and events', () => {
    const { board, posts, object } = teamBoard({ keyed: true });
    const [a, b, c] = watchAs(object, red);
    board.set({ items: [{ team: 'red', text: 'one' }] }, BACKGROUND_CONTEXT);
    posts.emit({ team: 'red', text: 'hi' }, BACKGROUND_CONTEXT);
    for (let index = 0; index < 3; index++) {
      const shared = valueOf(a?.[index]);
      expect(shared).toBeDefined();
      expect(Object.isFrozen(shared)).toBe(true);
      expect(valueOf(b?.[index])).toBe(shared);
      expect(valueOf(c?.[index])).toBe(shared);
    }
    expect(valueOf(a?.[1])).toEqual({ items: [{ team: 'red', text: 'one' }] });
    expect(valueOf(a?.[2])).toEqual({ team: 'red', text: 'hi' });
  });

  it('gives each key its own projection', () => {
    const { board, object } = teamBoard({ keyed: true });
    const [redFrames, blueFrames] = watchAs(object, [red[0] as RemoteViewer, blue[0] as RemoteViewer]);
    board.set(
      {
        items: [
          { team: 'red', text: 'r' },
          { team: 'blue', text: 'b' },
        ],
      },
      BACKGROUND_CONTEXT,
    );
    expect(valueOf(redFrames?.[1])).toEqual({ items: [{ team: 'red', text: 'r' }] });
    expect(valueOf(blueFrames?.[1])).toEqual({ items: [{ team: 'blue', text: 'b' }] });
  });

  it('withholds a change whose projection threw from that key only, projecting it once', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const { board, posts, object, calls } = teamBoard({ keyed: true, throwFor: 'red' });
    const redFrames = watchAs(object, red);
    const blueFrames = watchAs(object, blue);
    calls.state = 0;
    board.set(
      {
        items: [
          { team: 'red', text: 'secret' },
          { team: 'blue', text: 'b' },
        ],
      },
      BACKGROUND_CONTEXT,
    );
    posts.emit({ team: 'red', text: 'secret' }, BACKGROUND_CONTEXT);
    posts.emit({ team: 'blue', text: 'b' }, BACKGROUND_CONTEXT);
    expect(redFrames.map((frames) => frames.map((frame) => frame.kind))).toEqual([
      ['snapshot'],
      ['snapshot'],
      ['snapshot'],
    ]);
    for (const frames of blueFrames) {
      expect(frames.map(valueOf)).toEqual([
        { items: [] },
        { items: [{ team: 'blue', text: 'b' }] },
        { team: 'blue', text: 'b' },
      ]);
    }
    expect(calls.state).toBe(2);
    expect(calls.events).toBe(4);
    const reported = warn.mock.calls.filter(
      ([, options]) => (options as { code?: string }).code === 'PI_PROJECTION_ERROR',
    );
    expect(reported).toHaveLength(3);
  });

  it('fails a new watch whose keyed projection throws, as an unkeyed one does', () => {
    const { board, object } = teamBoard({ keyed: true, throwFor: 'red' });
    board.set({ items: [{ team: 'red', text: 'secret' }] }, BACKGROUND_CONTEXT);
    expect(() => watchAs(object, [red[0] as RemoteViewer])).toThrow(/A state projection failed: projection bug/);
    expect(() => watchAs(object, [blue[0] as RemoteViewer])).not.toThrow();
  });

  it('fails a new watch whose projection key throws, showing it nothing', () => {
    const board = createRemoteState<Board>(
      { items: [] },
      {
        projectFor: (value) => value,
        projectionKey: () => {
          throw new Error('no key');
        },
      },
    );
    const posts = createRemoteEvents<Post>();
    const frames: WatchFrame[] = [];
    expect(() =>
      watchObject(
        exposure,
        { board, posts } as unknown as Record<string, unknown>,
        (frame) => frames.push(frame),
        red[0] as RemoteViewer,
      ),
    ).toThrow(/A projection key failed: no key/);
    expect(frames).toEqual([]);
  });

  it('sends nothing to a connection whose shared projection did not change', () => {
    const { board, object } = teamBoard({ keyed: true });
    const [redFrames, blueFrames] = watchAs(object, [red[0] as RemoteViewer, blue[0] as RemoteViewer]);
    board.set({ items: [{ team: 'blue', text: 'b' }] }, BACKGROUND_CONTEXT);
    expect(redFrames?.map((frame) => frame.kind)).toEqual(['snapshot']);
    expect(blueFrames?.map((frame) => frame.kind)).toEqual(['snapshot', 'state']);
  });

  it('withholds a shared projection that breaks the contract from every connection with its key, reporting it once', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const board = createRemoteState<Board>(
      { items: [] },
      {
        projectFor: (value, viewer) =>
          teamOf(viewer) === 'red' && value.items.length > 0 ? ({ wrong: true } as never) : value,
        projectionKey: teamOf,
      },
    );
    const object = { board, posts: createRemoteEvents<Post>() } as unknown as Record<string, unknown>;
    const redFrames = watchAs(object, red);
    const blueFrames = watchAs(object, blue);
    board.set({ items: [{ team: 'red', text: 'x' }] }, BACKGROUND_CONTEXT);
    expect(redFrames.every((frames) => frames.length === 1)).toBe(true);
    expect(blueFrames.every((frames) => frames.length === 2)).toBe(true);
    expect(
      warn.mock.calls.filter(([, options]) => (options as { code?: string }).code === 'PI_CONTRACT_VIOLATION'),
    ).toHaveLength(1);
  });

  it('without a key, projects per connection and hands each its own object, as before', () => {
    const { board, posts, object, calls } = teamBoard({ keyed: false });
    const [a, b] = watchAs(object, red);
    expect(calls.state).toBe(3);
    calls.state = 0;
    board.set({ items: [{ team: 'red', text: 'one' }] }, BACKGROUND_CONTEXT);
    posts.emit({ team: 'red', text: 'hi' }, BACKGROUND_CONTEXT);
    expect(calls.state).toBe(3);
    expect(calls.events).toBe(3);
    for (let index = 0; index < 3; index++) {
      expect(valueOf(b?.[index])).toEqual(valueOf(a?.[index]));
      expect(valueOf(b?.[index])).not.toBe(valueOf(a?.[index]));
    }
  });

  it('checks an unprojected value against its contract once, however many connections watch it', () => {
    const checks = { board: 0, posts: 0 };
    const counting: AnyExposure = {
      methods: {},
      state: { board: z.unknown().refine(() => ++checks.board > 0) },
      events: { posts: z.unknown().refine(() => ++checks.posts > 0) },
    };
    const board = createRemoteState<Board>({ items: [] });
    const object = { board, posts: createRemoteEvents<Post>() } as unknown as Record<string, unknown>;
    const frames = [...red, ...blue].map((viewer) => {
      const sent: WatchFrame[] = [];
      watchObject(counting, object, (frame) => sent.push(frame), viewer);
      return sent;
    });
    board.set({ items: [{ team: 'red', text: 'one' }] }, BACKGROUND_CONTEXT);
    (object['posts'] as ReturnType<typeof createRemoteEvents<Post>>).emit(
      { team: 'red', text: 'hi' },
      BACKGROUND_CONTEXT,
    );
    expect(checks).toEqual({ board: 2, posts: 1 });
    expect(frames.map((sent) => sent.map(valueOf))).toEqual(
      frames.map(() => [{ items: [] }, { items: [{ team: 'red', text: 'one' }] }, { team: 'red', text: 'hi' }]),
    );
  });

  it('ignores a key on an unprojected cell: every connection is sent the value itself', () => {
    const board = createRemoteState<Board>({ items: [] }, { projectionKey: teamOf });
    const object = { board, posts: createRemoteEvents<Post>() } as unknown as Record<string, unknown>;
    const [a, d] = watchAs(object, [red[0] as RemoteViewer, blue[0] as RemoteViewer]);
    board.set({ items: [{ team: 'red', text: 'one' }] }, BACKGROUND_CONTEXT);
    expect(valueOf(a?.[1])).toBe(board.value);
    expect(valueOf(d?.[1])).toBe(board.value);
  });
});

describe('the projection cache', () => {
  it('projects a later change afresh rather than reusing the previous one', () => {
    const { board, object } = teamBoard({ keyed: true });
    const [a] = watchAs(object, [red[0] as RemoteViewer]);
    board.set({ items: [{ team: 'red', text: 'one' }] }, BACKGROUND_CONTEXT);
    board.set({ items: [{ team: 'red', text: 'two' }] }, BACKGROUND_CONTEXT);
    expect(a?.map(valueOf)).toEqual([
      { items: [] },
      { items: [{ team: 'red', text: 'one' }] },
      { items: [{ team: 'red', text: 'two' }] },
    ]);
  });

  it('shares a snapshot projection between watches of the same revision', () => {
    const { object, calls } = teamBoard({ keyed: true });
    const [first] = watchAs(object, [red[0] as RemoteViewer]);
    const [second] = watchAs(object, [red[1] as RemoteViewer]);
    expect(calls.state).toBe(1);
    expect(valueOf(second?.[0])).toBe(valueOf(first?.[0]));
  });
});
