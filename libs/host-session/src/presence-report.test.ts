import { afterEach, describe, expect, it } from 'vitest';
import { createDeferred, createScriptedProvider } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { AgentLanePluginView, ConnectionState } from '@pi/plugin-api';
import { createRemoteState } from '@pi/remote';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { reportPresence, type SessionPresence } from './presence-report';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from './testing';

const CONNECTED: ConnectionState = { status: 'connected', epoch: 1 };
const DOWN: ConnectionState = {
  status: 'disconnected',
  reason: { code: 'disconnected', message: 'gone' },
  retrying: true,
};

describe.each(TRANSPORTS)('presence reports to the coordinator (%s)', (transport) => {
  let session: TestSessionHost | undefined;
  let stopReporting: (() => void) | undefined;
  afterEach(async () => {
    stopReporting?.();
    await session?.close();
    [session, stopReporting] = [undefined, undefined];
  });

  /** A session whose model answers once `answer` resolves, reporting to a recorder; `hold` keeps each send open. */
  async function start(options: { hold?: boolean } = {}) {
    const answer = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'wait', until: answer.promise },
          { type: 'text_delta', delta: 'done' },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    let lane: AgentLanePluginView | undefined;
    session = await startTestSessionHost({
      transport,
      facets: [
        { id: '@test/model', facet: modelProviderFacet(provider) },
        { id: '@test/driver', facet: (context) => void (lane = context.agent.main) },
      ],
    });
    const connection = createRemoteState<ConnectionState>(CONNECTED);
    const sent: SessionPresence[] = [];
    const pending: Array<() => void> = [];
    const open = { now: 0, most: 0 };
    stopReporting = reportPresence(session.host, { connection }, async (presence) => {
      sent.push(presence);
      open.most = Math.max(open.most, ++open.now);
      if (options.hold === true) await new Promise<void>((resolve) => pending.push(resolve));
      open.now -= 1;
    });
    const prompt = async () => {
      const accepted = await lane?.prompt(
        [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
        BACKGROUND_CONTEXT,
      );
      if (accepted === undefined || accepted.isErr()) throw new Error('prompt refused');
      return accepted.value.operationId;
    };
    return { host: session, connection, sent, pending, open, prompt, answer, lane: () => lane };
  }

  it('says how many presentations are attached: at once, and at each connect and disconnect', async () => {
    const { host, sent } = await start();
    expect(sent).toEqual([{ presentations: 0, busy: false }]);
    const client = await host.connect();
    await eventually(() => sent.length === 2);
    client.close();
    await eventually(() => sent.length === 3);
    expect(sent).toEqual([
      { presentations: 0, busy: false },
      { presentations: 1, busy: false },
      { presentations: 0, busy: false },
    ]);
  });

  it('says it is busy while a run is in progress, and idle again once it settled', async () => {
    const { host, sent, prompt, answer, lane } = await start();
    const operationId = await prompt();
    await eventually(() => sent.at(-1)?.busy === true);
    expect(host.host.activity.busy).toBe(true);
    answer.resolve();
    await lane()?.settled(operationId);
    await eventually(() => sent.at(-1)?.busy === false);
    expect(sent.map((presence) => presence.busy)).toEqual([false, true, false]);
  });

  it('sends one report at a time, the next with the latest values', async () => {
    const { host, sent, pending, open } = await start({ hold: true });
    const first = await host.connect();
    const second = await host.connect();
    await eventually(() => host.host.rpc.stats().length === 2);
    // Both connects waited behind the first report, and went out as one, with the count as it is now.
    expect(sent).toEqual([{ presentations: 0, busy: false }]);
    pending.shift()?.();
    await eventually(() => sent.length === 2);
    expect(sent[1]).toEqual({ presentations: 2, busy: false });
    first.close();
    second.close();
    await eventually(() => {
      pending.splice(0).forEach((release) => release());
      return sent.at(-1)?.presentations === 0;
    });
    expect(open.most).toBe(1);
  });

  it('sends nothing while the coordinator is away, and the current values when it is back', async () => {
    const { host, sent, connection } = await start();
    connection.set(DOWN, BACKGROUND_CONTEXT);
    await host.connect();
    expect(sent).toHaveLength(1);
    connection.set(CONNECTED, BACKGROUND_CONTEXT);
    await eventually(() => sent.length === 2);
    expect(sent[1]).toEqual({ presentations: 1, busy: false });
  });
});
