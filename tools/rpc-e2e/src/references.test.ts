import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { releaseRemote, type RemoteErrorEnvelope } from '@pi/remote';
import {
  Index,
  TRANSPORTS,
  createIndex,
  eventually,
  nextValue,
  openRawChannel,
  remoteErrorOf,
  serveHost,
  startRpcFixture,
  type HostTransport,
  type IndexJob,
  type IndexProgress,
  type IndexService,
  type RawChannel,
  type RpcFixture,
  abortableContext,
} from '@pi/test-support';

/** The index fixture, except that starting an already started root hands back the same job, so clients share it. */
function createSharedIndex(): IndexService & { jobs: ReturnType<typeof createIndex>['jobs'] } {
  const index = createIndex();
  const byRoot = new Map<string, IndexJob>();
  return {
    jobs: index.jobs,
    async start(root: string, context: Context) {
      const existing = byRoot.get(root);
      if (existing !== undefined) return existing;
      const job = await index.start(root, context);
      byRoot.set(root, job);
      return job;
    },
  };
}

const totalActiveCalls = (fixture: RpcFixture) => fixture.stats().reduce((sum, stats) => sum + stats.activeCalls, 0);

describe.each(TRANSPORTS)('remote references over %s', (kind) => {
  let fixture: RpcFixture;
  let index: ReturnType<typeof createSharedIndex>;
  beforeEach(async () => {
    index = createSharedIndex();
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Index, index) });
  });
  afterEach(() => fixture.close());

  it('start returns a job proxy whose progress replicates', async () => {
    const remote = await (await fixture.connect()).use(Index);
    const job = await remote.start('/repo', BACKGROUND_CONTEXT);
    expect(job.progress.value).toEqual({ status: 'running', indexed: 0 });
    await job.advance(40, BACKGROUND_CONTEXT);
    expect(await nextValue(job.progress, (progress) => progress.indexed === 40)).toEqual({
      status: 'running',
      indexed: 40,
    });
    // One subscription for the service itself, one for the job's progress.
    expect(fixture.stats()).toEqual([{ activeCalls: 0, subscriptions: 2, references: 1 }]);
  });

  it("aborting one client's wait cancels only that wait; another client's and the same client's second wait go on", async () => {
    const first = await (await fixture.connect()).use(Index);
    const second = await (await fixture.connect()).use(Index);
    const firstJob = await first.start('/shared', BACKGROUND_CONTEXT);
    const secondJob = await second.start('/shared', BACKGROUND_CONTEXT);
    const quitter = abortableContext();
    const abandoned = remoteErrorOf(firstJob.wait(quitter.context));
    const sameClient = firstJob.wait(BACKGROUND_CONTEXT);
    const otherClient = secondJob.wait(BACKGROUND_CONTEXT);
    await eventually(() => totalActiveCalls(fixture) === 3);
    quitter.controller.abort();
    expect((await abandoned).code).toBe('cancelled');
    await eventually(() => totalActiveCalls(fixture) === 2);
    expect(index.jobs[0]?.progress.value.status).toBe('running');
    await secondJob.advance(100, BACKGROUND_CONTEXT);
    const done: IndexProgress = { status: 'done', indexed: 100 };
    expect(await sameClient).toEqual(done);
    expect(await otherClient).toEqual(done);
  });

  it('job.cancel() cancels the job itself, for every client', async () => {
    const first = await (await fixture.connect()).use(Index);
    const second = await (await fixture.connect()).use(Index);
    const firstJob = await first.start('/shared', BACKGROUND_CONTEXT);
    const secondJob = await second.start('/shared', BACKGROUND_CONTEXT);
    const waiting = secondJob.wait(BACKGROUND_CONTEXT);
    await firstJob.cancel(BACKGROUND_CONTEXT);
    expect(await waiting).toEqual({ status: 'cancelled', indexed: 0 });
    await nextValue(secondJob.progress, (progress) => progress.status === 'cancelled');
    await nextValue(firstJob.progress, (progress) => progress.status === 'cancelled');
  });

  it('a released reference answers stale_reference and the host holds nothing for it', async () => {
    const remote = await (await fixture.connect()).use(Index);
    const job = await remote.start('/repo', BACKGROUND_CONTEXT);
    expect(fixture.stats()).toEqual([{ activeCalls: 0, subscriptions: 2, references: 1 }]);
    await releaseRemote(job);
    await eventually(() => fixture.stats()[0]?.subscriptions === 1);
    expect(fixture.stats()).toEqual([{ activeCalls: 0, subscriptions: 1, references: 0 }]);
    expect((await remoteErrorOf(job.advance(1, BACKGROUND_CONTEXT))).code).toBe('stale_reference');
    expect((await remoteErrorOf(job.wait(BACKGROUND_CONTEXT))).code).toBe('stale_reference');
    expect(index.jobs[0]?.progress.value.status).toBe('running');
  });

  it('aborting the call that returned a job, after it returned, leaves the job replicating', async () => {
    const remote = await (await fixture.connect()).use(Index);
    const starter = abortableContext();
    const job = await remote.start('/repo', starter.context);
    starter.controller.abort();
    await job.advance(10, BACKGROUND_CONTEXT);
    expect((await nextValue(job.progress, (progress) => progress.indexed === 10)).status).toBe('running');
  });

  it('a disconnect releases the connection’s references but not the service-owned job', async () => {
    const client = await fixture.connect();
    const job = await (await client.use(Index)).start('/repo', BACKGROUND_CONTEXT);
    await job.advance(5, BACKGROUND_CONTEXT);
    await nextValue(job.progress, (progress) => progress.indexed === 5);
    fixture.dropConnections();
    await nextValue(client.connection, (state) => state.status === 'connected' && state.epoch === 2);
    // The new connection holds the re-sent service watch and nothing of the old connection's.
    await eventually(() => fixture.stats().length === 1 && fixture.stats()[0]?.subscriptions === 1);
    expect(fixture.stats()).toEqual([{ activeCalls: 0, subscriptions: 1, references: 0 }]);
    expect((await remoteErrorOf(job.advance(1, BACKGROUND_CONTEXT))).code).toBe('stale_reference');
    expect(job.progress.value).toEqual({ status: 'running', indexed: 5 });
    expect(index.jobs[0]?.progress.value).toEqual({ status: 'running', indexed: 5 });
  });
});

describe.each(TRANSPORTS)('reference ids are scoped to their connection over %s', (kind) => {
  let fixture: RpcFixture;
  let served: HostTransport;
  let owner: RawChannel;
  let stranger: RawChannel;
  let index: ReturnType<typeof createIndex>;
  beforeEach(async () => {
    index = createIndex();
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Index, index) });
    served = await serveHost(kind, fixture.host);
    owner = await openRawChannel(served.socketFactory);
    stranger = await openRawChannel(served.socketFactory);
  });
  afterEach(async () => {
    owner.close();
    stranger.close();
    await served.close();
    await fixture.close();
  });

  const call = (raw: RawChannel, ref: string, member: string, args: unknown[] = []) =>
    raw.channel.call({ target: { ref }, member, args, trace: {} }, undefined);

  function watchError(raw: RawChannel, ref: string): Promise<RemoteErrorEnvelope> {
    return new Promise((resolve, reject) => {
      raw.channel.watch(
        { ref },
        { next: (frame) => reject(new Error(`a frame arrived: ${JSON.stringify(frame)}`)), error: resolve },
      );
    });
  }

  it("another connection's reference id is stale_reference for every operation, and stays the owner's", async () => {
    const started = await owner.channel.call(
      { target: { service: 'index' }, member: 'start', args: ['/repo'], trace: {} },
      undefined,
    );
    const ref = started.ref as string;
    expect(ref).toMatch(/^ref_/);
    expect((await remoteErrorOf(call(stranger, ref, 'cancel'))).code).toBe('stale_reference');
    expect(
      (await remoteErrorOf(stranger.mutate('$rpc.invoke', { r: ref, m: 'advance', a: [50], c: 'x1', t: {} }))).code,
    ).toBe('stale_reference');
    expect((await watchError(stranger, ref)).code).toBe('stale_reference');
    expect((await remoteErrorOf(stranger.channel.release(ref))).code).toBe('stale_reference');
    expect(index.jobs[0]?.progress.value).toEqual({ status: 'running', indexed: 0 });
    await call(owner, ref, 'advance', [30]);
    expect(index.jobs[0]?.progress.value).toEqual({ status: 'running', indexed: 30 });
  });

  it('releasing a reference ends its watch on the client with stale_reference', async () => {
    const started = await owner.channel.call(
      { target: { service: 'index' }, member: 'start', args: ['/repo'], trace: {} },
      undefined,
    );
    const ref = started.ref as string;
    const ended: string[] = [];
    const snapshot = new Promise<void>((resolve) => {
      owner.channel.watch({ ref }, { next: () => resolve(), error: (error) => ended.push(error.code) });
    });
    await snapshot;
    await owner.channel.release(ref);
    // tRPC ends a subscription through its async iteration, so the end may trail the release's response.
    await eventually(() => ended.length > 0);
    expect(ended).toEqual(['stale_reference']);
  });

  it('a made-up reference id is stale_reference', async () => {
    expect((await remoteErrorOf(call(stranger, 'ref_AAAAAAAAAAAAAAAAAAAAAA', 'wait'))).code).toBe('stale_reference');
    expect(
      (await remoteErrorOf(stranger.mutate('$rpc.invoke', { r: 'made-up', m: 'wait', a: [], c: 'x2', t: {} }))).code,
    ).toBe('stale_reference');
    expect((await watchError(stranger, 'ref_madeup')).code).toBe('stale_reference');
  });
});
