import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import {
  RemoteError,
  createRemoteEvents,
  createRemoteState,
  defineRemoteService,
  type RemoteEvents,
  type RemoteState,
} from '@pi/remote';
import { TRANSPORTS, remoteErrorOf, startRpcFixture, type RpcFixture } from '@pi/test-support';

interface Count {
  n: number;
  by: string;
  /** Makes each frame big enough that a burst spans several socket reads on the client. */
  pad: string;
}

interface Tally {
  readonly count: RemoteState<Count>;
  readonly marks: RemoteEvents<{ mark: number; pad: string }>;
  /** Writes the count `steps` times and returns the last revision it made. */
  bump(by: string, steps: number, context: Context): Promise<number>;
  /** Emits `steps` marks and returns the last one. */
  mark(steps: number, context: Context): Promise<number>;
  /** Writes the count `steps` times, then fails. */
  bumpThenFail(steps: number, context: Context): Promise<void>;
}

const Tally = defineRemoteService<Tally>('tally', {
  methods: {
    bump: { args: [z.string(), z.number().int()], result: z.number().int() },
    mark: { args: [z.number().int()], result: z.number().int() },
    bumpThenFail: { args: [z.number().int()], result: z.void() },
  },
  state: { count: z.object({ n: z.number().int(), by: z.string(), pad: z.string() }) },
  events: { marks: z.object({ mark: z.number().int(), pad: z.string() }) },
});

const PAD = 'x'.repeat(2048);

function createTally() {
  const count = createRemoteState<Count>({ n: 0, by: 'nobody', pad: '' });
  const marks = createRemoteEvents<{ mark: number; pad: string }>();
  let lastMark = 0;
  const failed = { revision: 0 };
  const write = (by: string, steps: number, context: Context) => {
    for (let step = 0; step < steps; step++) count.set({ n: count.value.n + 1, by, pad: PAD }, context);
    return count.revision;
  };
  const service: Tally = {
    count,
    marks,
    bump: async (by, steps, context) => write(by, steps, context),
    async mark(steps, context) {
      for (let step = 0; step < steps; step++) marks.emit({ mark: ++lastMark, pad: PAD }, context);
      return lastMark;
    },
    async bumpThenFail(steps, context) {
      failed.revision = write('failing caller', steps, context);
      throw new RemoteError('refused', 'Refused after writing');
    },
  };
  return { service, failed };
}

const ITERATIONS = 200;
/** Varies how many frames a call queues, so its own last frame lands at many depths behind the others. */
const stepsOf = (iteration: number) => 1 + ((iteration * 7) % 40);

describe.each(TRANSPORTS)('a caller reads its own writes over %s', (kind) => {
  let fixture: RpcFixture;
  let tally: ReturnType<typeof createTally>;
  let publishing = false;
  let publishers: Array<Promise<void>> = [];

  /** Other clients writing the same state, and emitting, for as long as the test runs. */
  const startPublishers = async (count: number) => {
    publishing = true;
    const clients = await Promise.all(Array.from({ length: count }, async () => (await fixture.connect()).use(Tally)));
    publishers = clients.map(async (remote, index) => {
      while (publishing) {
        await remote.bump(`publisher ${index}`, 10, BACKGROUND_CONTEXT);
        await remote.mark(5, BACKGROUND_CONTEXT);
      }
    });
  };

  beforeEach(async () => {
    tally = createTally();
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Tally, tally.service) });
    await startPublishers(2);
  });
  afterEach(async () => {
    publishing = false;
    await Promise.allSettled(publishers);
    await fixture.close();
  });

  it('the caller replica shows the revision its call wrote when the call resolves', async () => {
    const remote = await (await fixture.connect()).use(Tally);
    const behind: Array<{ made: number; seen: number }> = [];
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const made = await remote.bump('caller', stepsOf(iteration), BACKGROUND_CONTEXT);
      if (remote.count.revision < made) behind.push({ made, seen: remote.count.revision });
    }
    expect(behind).toEqual([]);
  });

  it('the events a call emitted have reached the caller when the call resolves', async () => {
    const remote = await (await fixture.connect()).use(Tally);
    const heard = new Set<number>();
    remote.marks.subscribe((event) => heard.add(event.mark));
    const missing: number[] = [];
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const mark = await remote.mark(stepsOf(iteration), BACKGROUND_CONTEXT);
      if (!heard.has(mark)) missing.push(mark);
    }
    expect(missing).toEqual([]);
  });

  it('a call that writes and then fails has delivered its writes when its error arrives', async () => {
    const remote = await (await fixture.connect()).use(Tally);
    const behind: Array<{ made: number; seen: number }> = [];
    for (let iteration = 0; iteration < ITERATIONS; iteration++) {
      const error = await remoteErrorOf(remote.bumpThenFail(stepsOf(iteration), BACKGROUND_CONTEXT));
      expect(error.code).toBe('refused');
      if (remote.count.revision < tally.failed.revision)
        behind.push({ made: tally.failed.revision, seen: remote.count.revision });
    }
    expect(behind).toEqual([]);
  });
});
