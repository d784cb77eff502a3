import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedProvider, type ScriptStep } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { CLIENT_ID, defineRemoteService } from '@pi/remote';
import { Presence, type AnyAgentTool, type SessionFacet } from '@pi/plugin-api';
import { TRANSPORTS, eventually, nextValue, remoteErrorOf, type TransportKind } from '@pi/test-support';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from '../testing';
import { Counter, watchViews } from './views-testing';

/** A test plugin's front: each client's call sends as that client, so the run it starts is the client's. */
interface SenderService {
  whoami(context: Context): Promise<string>;
  prompt(text: string, context: Context): Promise<string>;
  followUp(text: string, context: Context): Promise<void>;
}

const Sender = defineRemoteService<SenderService>('sender', {
  methods: {
    whoami: { args: [], result: z.string() },
    prompt: { args: [z.string()], result: z.string() },
    followUp: { args: [z.string()], result: z.void() },
  },
  state: {},
  events: {},
});

/** The model calls `count` (with `durable` as given), then answers; once per run. */
const countingRun = (durable: boolean): ScriptStep[][] => [
  [
    { type: 'tool_call', id: `c-${durable}`, name: 'count', arguments: { durable } },
    { type: 'done', stopReason: 'tool_calls' },
  ],
  [
    { type: 'text_delta', delta: 'counted' },
    { type: 'done', stopReason: 'stop' },
  ],
];

/** What the `count` tool's views ended with, by view id. */
type Ended = Map<string, string>;

/** A tool that opens a counter for the run's originator and waits until a client sends it a number. */
function countTool(ended: Ended, context: Parameters<SessionFacet>[0]): AnyAgentTool {
  return {
    name: 'count',
    label: 'Count',
    description: 'asks the user for a number',
    executionMode: 'sequential',
    parameters: z.object({ durable: z.boolean() }),
    async execute({ durable }: { durable: boolean }, call) {
      const view = context.view(Counter, { count: 0 }, { to: 'originator', durable, context: call });
      view.on((message) => view.close(message.add));
      const outcome = await view.done;
      ended.set(view.id, outcome.isOk() ? `added ${String(outcome.value)}` : outcome.error);
      return { content: [{ type: 'text', text: ended.get(view.id) ?? '' }], details: null };
    },
  };
}

const fixtures: TestSessionHost[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

async function start(transport: TransportKind, runs: ScriptStep[][]) {
  const ended: Ended = new Map();
  const provider = createScriptedProvider({ turns: runs });
  const fixture = await startTestSessionHost({
    transport,
    facets: [
      { id: '@test/model', facet: modelProviderFacet(provider) },
      {
        id: '@test/count',
        facet: (context) => {
          const tool = countTool(ended, context);
          context.tools.add((draft) => draft.set(tool.name, tool));
          const lane = context.agent.main;
          const message = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });
          context.provide(Sender, {
            whoami: async (call) => call.value(CLIENT_ID) ?? '',
            async prompt(text, call) {
              return (await lane.prompt([message(text)], call))._unsafeUnwrap().operationId;
            },
            async followUp(text, call) {
              (await lane.followUp(message(text), call))._unsafeUnwrap();
            },
          });
        },
      },
    ],
  });
  fixtures.push(fixture);
  return { fixture, ended };
}

async function attach(fixture: TestSessionHost) {
  const client = await fixture.connect();
  const sender = await client.use(Sender);
  const { replica, views } = await watchViews(client);
  return { client, sender, replica, views, id: await sender.whoami(BACKGROUND_CONTEXT) };
}

describe.each(TRANSPORTS)("a tool's view for the run's originator over %s", (transport) => {
  it('goes only to the client whose prompt started the run; the other can neither see nor answer it', async () => {
    const { fixture, ended } = await start(transport, countingRun(false));
    const a = await attach(fixture);
    const b = await attach(fixture);

    await a.sender.prompt('count for me', BACKGROUND_CONTEXT);
    await eventually(() => a.replica.list().length === 1);
    const [view] = a.replica.list();
    expect(view).toMatchObject({ component: 'test.counter', to: [a.id] });
    await b.sender.whoami(BACKGROUND_CONTEXT);
    expect(b.replica.list()).toEqual([]);
    const refused = await remoteErrorOf(b.views.message(view?.viewId ?? '', { add: 1 }, BACKGROUND_CONTEXT));
    expect(refused.code).toBe('unknown_view');

    await a.views.message(view?.viewId ?? '', { add: 2 }, BACKGROUND_CONTEXT);
    expect([...ended.values()]).toEqual(['added 2']);
  });

  it("goes to the sender of the follow-up that started the run, not to the previous run's", async () => {
    const { fixture, ended } = await start(transport, [...countingRun(false), ...countingRun(false)]);
    const a = await attach(fixture);
    const b = await attach(fixture);
    await a.sender.prompt('first', BACKGROUND_CONTEXT);
    await eventually(() => a.replica.list().length === 1);
    await b.sender.followUp('then mine', BACKGROUND_CONTEXT);

    await a.views.message(a.replica.list()[0]?.viewId ?? '', { add: 1 }, BACKGROUND_CONTEXT);
    await eventually(() => b.replica.list().length === 1);
    expect(b.replica.list()[0]?.to).toEqual([b.id]);
    expect(a.replica.list()).toEqual([]);
    await b.views.message(b.replica.list()[0]?.viewId ?? '', { add: 5 }, BACKGROUND_CONTEXT);
    await eventually(() => ended.size === 2);
    expect([...ended.values()]).toEqual(['added 1', 'added 5']);
  });

  it('closes with no_clients when the originator leaves, though another client is attached', async () => {
    const { fixture, ended } = await start(transport, countingRun(false));
    const a = await attach(fixture);
    await attach(fixture);
    await a.sender.prompt('count for me', BACKGROUND_CONTEXT);
    await eventually(() => a.replica.list().length === 1);

    a.client.close();

    await eventually(() => ended.size === 1);
    expect([...ended.values()]).toEqual(['no_clients']);
  });

  it('a durable one stays when the originator leaves and goes to the next client that attaches, not to those there', async () => {
    const { fixture, ended } = await start(transport, countingRun(true));
    const a = await attach(fixture);
    const b = await attach(fixture);
    await a.sender.prompt('count for me', BACKGROUND_CONTEXT);
    await eventually(() => a.replica.list().length === 1);
    const viewId = a.replica.list()[0]?.viewId ?? '';

    const attached = (await b.client.use(Presence)).attached;
    a.client.close();
    // The host saw A leave (over a socket that takes a moment) before C says hello.
    await nextValue(attached, (entries) => !entries.some((entry) => entry.clientId === a.id));
    const c = await attach(fixture);

    expect(c.replica.list()).toMatchObject([{ viewId, to: [c.id] }]);
    await b.sender.whoami(BACKGROUND_CONTEXT);
    expect(b.replica.list()).toEqual([]);
    await c.views.message(viewId, { add: 3 }, BACKGROUND_CONTEXT);
    expect([...ended.values()]).toEqual(['added 3']);
  });
});
