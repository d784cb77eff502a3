import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { fuzzFrame, fuzzJson, wireText } from './fuzz-arbitraries';
import { startFuzzHost, type FuzzHost } from './fuzz-host';
import { callFrame, connectionParamsFrame, serverFrameViolations, sortServerFrames, wrongCodesFor } from './fuzz-wire';
import { serveRawSockets, type RawSocket, type RawSocketServer } from './raw-socket';

const MAX_PAYLOAD = 64 * 1024;
/** The last call of every fuzzed connection; no generator can spell this id (see fuzz-arbitraries). */
const SENTINEL = 'sentinel';

const bytes = (frame: string) => Buffer.byteLength(frame);
const frameWithinLimit = fuzzFrame.filter((frame) => bytes(frame) <= MAX_PAYLOAD / 2);

/** A well-formed echo call of exactly `size` bytes. */
function echoFrameOfSize(id: number, size: number): string {
  const bare = callFrame(id, 'probe.echo', ['']);
  return callFrame(id, 'probe.echo', ['x'.repeat(size - bytes(bare))]);
}

describe.each(TRANSPORTS)('fuzzed frames over %s', (kind) => {
  let host: FuzzHost;
  let raw: RawSocketServer;
  let round = 0;
  beforeEach(async () => {
    host = await startFuzzHost(kind, { maxPayload: MAX_PAYLOAD });
    raw = await serveRawSockets(kind, host.fixture.host, { maxPayload: MAX_PAYLOAD });
  });
  afterEach(async () => {
    try {
      // After every attack: the bystander is still served, and so is a client that connects now.
      await host.bystanderRound(round + 1);
      await host.freshClientIsServed();
    } finally {
      await raw.close();
      await host.close();
    }
  });

  async function openRaw(): Promise<RawSocket> {
    const socket = raw.open();
    await socket.opened;
    return socket;
  }

  async function connectRaw(): Promise<RawSocket> {
    const socket = await openRaw();
    socket.sendText(connectionParamsFrame());
    return socket;
  }

  /** Sends a well-formed call last, then waits for its answer and for every call on the host to end. */
  async function drain(socket: RawSocket): Promise<void> {
    socket.sendText(callFrame(SENTINEL, 'probe.nothing', []));
    await socket.until((frame) => frame.startsWith(`{"id":"${SENTINEL}"`));
    await eventually(() => host.fixture.stats().every((stats) => stats.activeCalls === 0));
  }

  /** Runs `attack` on a fresh raw socket while the bystander is served, closes the socket, and checks the host let go of it. */
  async function underAttack(
    attack: (socket: RawSocket) => Promise<void>,
    connect: () => Promise<RawSocket> = connectRaw,
  ): Promise<void> {
    round += 1;
    const socket = await connect();
    try {
      await Promise.all([attack(socket), host.bystanderRound(round)]);
    } finally {
      socket.close();
      await socket.closed;
    }
    await host.backToBaseline();
  }

  it('random, truncated and wrong-shaped text frames get documented codes (never internal), and the server sends nothing it should not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(frameWithinLimit, { minLength: 1, maxLength: 10 }), async (frames) => {
        await underAttack(async (socket) => {
          for (const frame of frames) socket.sendText(frame);
          await drain(socket);
          expect(socket.isClosed).toBe(false);
          const sorted = sortServerFrames(socket.received);
          expect(sorted.unexpected).toEqual([]);
          expect(wrongCodesFor(sorted.errorCodes)).toEqual([]);
          expect(serverFrameViolations(frames, socket.received)).toEqual([]);
        });
      }),
      { numRuns: 80 },
    );
  });

  it('a huge batch gets exactly one answer per request, each a result or a documented code; one unparseable entry fails the batch as a whole', async () => {
    const entry = fc.oneof(
      fc.constant((id: number) => ({
        id,
        method: 'mutation',
        params: { path: 'probe.echo', input: { json: { a: [id], c: `e${id}`, t: {} } } },
      })),
      fc.constant((id: number) => ({
        id,
        method: 'mutation',
        params: { path: 'probe.nothing', input: { json: { a: [1], c: `n${id}`, t: {} } } },
      })),
      fc.tuple(wireText, fuzzJson).map(([path, input]) => (id: number) => ({
        id,
        method: 'mutation',
        params: { path, input: { json: input } },
      })),
      fc.constant((id: number) => ({
        id,
        method: 'mutation',
        params: { path: '$rpc.invoke', input: { json: { r: `ref_${id}`, m: 'wait', a: [], c: `r${id}`, t: {} } } },
      })),
      fc.constant((id: number) => ({
        id,
        method: 'mutation',
        params: { path: '$rpc.cancel', input: { json: { c: `e${id + 1}` } } },
      })),
      fc.constant((id: number) => ({ id, method: 'subscription.stop' })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 100, maxLength: 300 }), fc.boolean(), async (makers, broken) => {
        const batch: unknown[] = makers.map((make, id) => make(id));
        if (broken) batch.push({ id: batch.length, method: 'no-such-method' });
        const frame = JSON.stringify(batch);
        expect(bytes(frame)).toBeLessThanOrEqual(MAX_PAYLOAD);
        const answerable = batch.filter(
          (request) => (request as { method: string }).method !== 'subscription.stop',
        ).length;
        await underAttack(async (socket) => {
          socket.sendText(frame);
          await drain(socket);
          const sorted = sortServerFrames(socket.received);
          expect(sorted.unexpected).toEqual([]);
          expect(wrongCodesFor(sorted.errorCodes)).toEqual([]);
          const counts = [...sorted.repliesById].filter(([id]) => id !== JSON.stringify(SENTINEL));
          if (broken) {
            expect(counts).toEqual([['null', 1]]);
            expect(sorted.errorCodes).toEqual(['invalid_argument']);
          } else {
            expect(counts).toHaveLength(answerable);
            expect(counts.every(([, count]) => count === 1)).toBe(true);
          }
        });
      }),
      { numRuns: 6 },
    );
  });

  it('a first frame that is not valid connection params is refused with a documented code and the socket closes', async () => {
    const firstFrame = fc.oneof(
      frameWithinLimit,
      fc.record({ method: fc.constant('connectionParams'), data: fuzzJson }).map((frame) => JSON.stringify(frame)),
      fc.dictionary(wireText, wireText).map((data) => JSON.stringify({ method: 'connectionParams', data })),
    );
    await fc.assert(
      fc.asyncProperty(
        firstFrame.filter((frame) => frame !== 'PING' && frame !== 'PONG'),
        async (frame) => {
          await underAttack(async (socket) => {
            socket.sendText(frame);
            socket.sendText(callFrame(1, 'probe.whoAmI', []));
            await socket.closed;
            const sorted = sortServerFrames(socket.received);
            expect(sorted.unexpected).toEqual([]);
            expect(sorted.errorCodes.length).toBeGreaterThan(0);
            expect(
              sorted.errorCodes.filter((code) => code !== 'invalid_argument' && code !== 'not_authorized'),
            ).toEqual([]);
            expect(socket.received.some((received) => received.includes('"result"'))).toBe(false);
            expect(serverFrameViolations([frame], socket.received)).toEqual([]);
          }, openRaw);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a frame above maxPayload closes only its own connection, with 1009; a frame at the limit is served', async () => {
    const size = fc
      .oneof(fc.integer({ min: -64, max: 64 }), fc.integer({ min: 65, max: 2 * MAX_PAYLOAD }))
      .map((offset) => MAX_PAYLOAD + offset);
    await fc.assert(
      fc.asyncProperty(size, fc.boolean(), async (frameSize, wellFormed) => {
        const frame = wellFormed ? echoFrameOfSize(7, frameSize) : '['.repeat(frameSize);
        expect(bytes(frame)).toBe(frameSize);
        await underAttack(async (socket) => {
          socket.sendText(frame);
          if (frameSize > MAX_PAYLOAD) {
            expect((await socket.closed).code).toBe(1009);
            expect(sortServerFrames(socket.received).repliesById.size).toBe(0);
            return;
          }
          await drain(socket);
          const sorted = sortServerFrames(socket.received);
          expect(sorted.errorCodes).toEqual(wellFormed ? [] : ['invalid_argument']);
          expect(sorted.repliesById.get(wellFormed ? '7' : 'null')).toBe(1);
        });
      }),
      { numRuns: 16 },
    );
  });

  it.skipIf(kind === 'loopback')(
    'binary frames are refused with invalid_argument, one error each, and the connection stays open',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.uint8Array({ maxLength: 512 }), { minLength: 1, maxLength: 6 }),
          async (frames) => {
            await underAttack(async (socket) => {
              for (const frame of frames) expect(socket.sendBytes(frame, 'binary')).toBe(true);
              await drain(socket);
              const sorted = sortServerFrames(socket.received);
              expect(sorted.unexpected).toEqual([]);
              expect(sorted.errorCodes).toEqual(frames.map(() => 'invalid_argument'));
              expect(socket.isClosed).toBe(false);
            });
          },
        ),
        { numRuns: 20 },
      );
    },
  );

  it.skipIf(kind === 'loopback')(
    'a text frame that is not UTF-8 closes only its own connection, with 1007',
    async () => {
      const text = fc.oneof(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fuzzFrame.map((frame) => new Uint8Array(Buffer.from(frame))),
      );
      await fc.assert(
        fc.asyncProperty(text, async (frame) => {
          await underAttack(async (socket) => {
            socket.sendBytes(frame, 'text');
            if (!isUtf8(frame)) {
              expect((await socket.closed).code).toBe(1007);
              return;
            }
            await drain(socket);
            expect(wrongCodesFor(sortServerFrames(socket.received).errorCodes)).toEqual([]);
          });
        }),
        { numRuns: 30 },
      );
    },
  );
});
