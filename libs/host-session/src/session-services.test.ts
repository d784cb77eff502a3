import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDeferred, createScriptedProvider, readSessionLines } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT, withAbortSignal, type Context } from '@pi/context';
import { defineLocalService, defineRemoteService } from '@pi/remote';
import { Probe, TRANSPORTS, createProbe, eventually, remoteErrorOf } from '@pi/test-support';
import type { CodingAgentSessionPluginContext, SessionFacet } from '@pi/plugin-api';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from './testing';

const fixtures: TestSessionHost[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

async function startHost(
  transport: 'loopback' | 'websocket',
  facets: Array<{ id: string; facet: SessionFacet }>,
): Promise<TestSessionHost> {
  const fixture = await startTestSessionHost({ transport, facets });
  fixtures.push(fixture);
  return fixture;
}

/** A local-only service: it may hold functions, and no client may reach it, even by guessing its id. */
const Secrets = defineLocalService<{ read(): string }>('secrets');
const SecretsGuess = defineRemoteService<{ read(context: Context): Promise<string> }>('secrets', {
  methods: { read: { args: [], result: z.string() } },
  state: {},
  events: {},
});

/** A test's own remote front for the lane: prompts, and answers only once the run settles. */
interface RunnerService {
  promptAndWait(text: string, context: Context): Promise<string>;
}
const Runner = defineRemoteService<RunnerService>('runner', {
  methods: { promptAndWait: { args: [z.string()], result: z.string() } },
  state: {},
  events: {},
});

function runnerFacet(seen: { context?: Context }): SessionFacet {
  return (context) => {
    const lane = context.agent.main;
    context.provide(Runner, {
      async promptAndWait(text, callContext) {
        seen.context = callContext;
        const accepted = await lane.prompt([{ role: 'user', content: [{ type: 'text', text }] }], callContext);
        if (accepted.isErr()) throw new Error(accepted.error.message);
        await lane.settled(accepted.value.operationId);
        return accepted.value.operationId;
      },
    });
  };
}

describe('local use', () => {
  it('returns the very object another facet provided, synchronously', async () => {
    const probe = createProbe();
    let used: unknown;
    await startHost('loopback', [
      { id: '@t/provider', facet: (context) => context.provide(Probe, probe) },
      { id: '@t/consumer', facet: (context) => context.onActivate(() => void (used = context.use(Probe))) },
    ]);
    expect(used).toBe(probe);
    expect(used).not.toBeInstanceOf(Promise);
  });
});

describe.each(TRANSPORTS)('the session host over %s', (transport) => {
  it('lets a client reach a remote service a facet provided', async () => {
    const probe = createProbe();
    const fixture = await startHost(transport, [
      { id: '@t/provider', facet: (context) => context.provide(Probe, probe) },
    ]);
    const client = await fixture.connect();

    const remote = await client.use(Probe);

    expect(await remote.echo({ hello: ['world', 1] }, BACKGROUND_CONTEXT)).toEqual({ hello: ['world', 1] });
    expect(probe.log.worked).toEqual(['echo']);
  });

  it('never lets a client reach a local service', async () => {
    const fixture = await startHost(transport, [
      { id: '@t/secrets', facet: (context) => context.provide(Secrets, { read: () => 'hunter2' }) },
    ]);
    const client = await fixture.connect();
    expect((await remoteErrorOf(client.use(SecretsGuess))).code).toBe('unknown_service');
  });

  it('tells facets about each client connecting and disconnecting, by its client id', async () => {
    const connected: string[] = [];
    const disconnected: string[] = [];
    const fixture = await startHost(transport, [
      {
        id: '@t/presence',
        facet: (context) => {
          context.provide(Probe, createProbe());
          context.onClientConnect((clientId) => void connected.push(clientId));
          context.onClientDisconnect((clientId) => void disconnected.push(clientId));
        },
      },
    ]);
    const client = await fixture.connect();
    const { clientId } = await (await client.use(Probe)).whoAmI(BACKGROUND_CONTEXT);

    expect(connected).toEqual([clientId]);
    client.close();
    await eventually(() => disconnected.length === 1);
    expect(disconnected).toEqual([clientId]);
  });

  it.each(['the caller aborts it', 'the caller disconnects'] as const)(
    'keeps a run going, and writes nothing durable, when %s',
    async (interruption) => {
      const gate = createDeferred<void>();
      const provider = createScriptedProvider({
        turns: [
          [
            { type: 'text_delta', delta: 'still ' },
            { type: 'wait', until: gate.promise },
            { type: 'text_delta', delta: 'here' },
            { type: 'done', stopReason: 'stop' },
          ],
        ],
      });
      const seen: { context?: Context } = {};
      const contexts: CodingAgentSessionPluginContext[] = [];
      const fixture = await startHost(transport, [
        { id: '@t/model', facet: modelProviderFacet(provider) },
        { id: '@t/runner', facet: runnerFacet(seen) },
        { id: '@t/lane', facet: (context) => void contexts.push(context) },
      ]);
      const client = await fixture.connect();
      const runner = await client.use(Runner);
      const controller = new AbortController();

      const call = runner.promptAndWait('go', withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
      await eventually(() => provider.requests.length === 1);
      if (interruption === 'the caller aborts it') controller.abort();
      else client.close();

      expect((await remoteErrorOf(call)).code).toBe(
        interruption === 'the caller aborts it' ? 'cancelled' : 'disconnected',
      );
      // The server-side invocation saw its cancellation; the run, on its own controller, did not.
      await eventually(() => seen.context?.abortSignal?.aborted === true);
      expect(provider.requests[0]?.context.abortSignal?.aborted).toBe(false);
      const lane = contexts[0]?.agent.main;
      const operationId = lane?.running ?? 'none';
      gate.resolve();
      expect(await lane?.settled(operationId)).toEqual({ outcome: 'completed', error: null });
      const kinds = (await readSessionLines(fixture.sessionFile)).map((line) => line['kind']);
      expect(kinds).not.toContain('cancel_requested');
      expect(kinds.at(-1)).toBe('operation_settled');
    },
  );

  it("keeps serving when a facet's connect callback throws, and reports it against that plugin", async () => {
    const connected: string[] = [];
    const fixture = await startHost(transport, [
      {
        id: '@t/broken',
        facet: (context) =>
          context.onClientConnect(() => {
            throw new Error('callback bug');
          }),
      },
      {
        id: '@t/fine',
        facet: (context) => {
          context.provide(Probe, createProbe());
          context.onClientConnect((clientId) => void connected.push(clientId));
        },
      },
    ]);
    const client = await fixture.connect();

    expect(await (await client.use(Probe)).echo('still serving', BACKGROUND_CONTEXT)).toBe('still serving');
    expect(connected).toHaveLength(1);
    expect(fixture.host.diagnostics().callbacks).toEqual([
      { owner: '@t/broken', message: expect.stringContaining('callback bug') },
    ]);
  });

  it('by contrast writes a durable cancellation for requestAbort', async () => {
    const gate = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'wait', until: gate.promise },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    const contexts: CodingAgentSessionPluginContext[] = [];
    const fixture = await startHost(transport, [
      { id: '@t/model', facet: modelProviderFacet(provider) },
      { id: '@t/lane', facet: (context) => void contexts.push(context) },
    ]);
    const lane = contexts[0]?.agent.main;
    const accepted = (
      await lane?.prompt([{ role: 'user', content: [{ type: 'text', text: 'go' }] }], BACKGROUND_CONTEXT)
    )?._unsafeUnwrap();
    await eventually(() => provider.requests.length === 1);

    await lane?.requestAbort(accepted?.operationId ?? '', BACKGROUND_CONTEXT);

    expect(await lane?.settled(accepted?.operationId ?? '')).toEqual({ outcome: 'aborted', error: null });
    expect((await readSessionLines(fixture.sessionFile)).map((line) => line['kind'])).toContain('cancel_requested');
  });
});

describe('without a coordinator', () => {
  it('has an absent upstream: use rejects `unavailable` and the connection state says why', async () => {
    let context: CodingAgentSessionPluginContext | undefined;
    await startHost('loopback', [{ id: '@t/upstream-user', facet: (captured) => void (context = captured) }]);
    const upstream = context?.upstream;

    expect(upstream?.available).toBe(false);
    expect(upstream?.connection.value).toMatchObject({
      status: 'disconnected',
      reason: { code: 'unavailable' },
      retrying: false,
    });
    expect((await remoteErrorOf(upstream?.use(Probe) ?? Promise.resolve())).code).toBe('unavailable');
  });
});
