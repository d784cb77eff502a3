import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolResultMessage } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { createOfflineProvider } from '@pi/model-providers';
import { permissionsSessionFacet, pluginId as permissionsId } from '@pi/permissions-session';
import { permissionsTuiFacet } from '@pi/permissions-tui';
import type { AgentLanePluginView, AnyAgentTool } from '@pi/plugin-api';
import { TRANSPORTS, eventually, type TransportKind } from '@pi/test-support';
import { durableMessages, hides, shows } from './session-and-tui';

// The confirm dialog of the real permissions TUI facet, against a real session host running the permissions
// session facet around a stand-in bash, driven by the offline model's `/tool bash {…}`.

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Pair {
  readonly session: TestSessionHost;
  readonly tui: TestTuiHost;
  readonly ran: string[];
  /** Asks the model to run `command` through bash; resolves with the run's operation id. */
  bash(command: string): Promise<string>;
  settled(operationId: string): ReturnType<AgentLanePluginView['settled']>;
  shows(text: string): Promise<void>;
  hides(text: string): Promise<void>;
}

async function start(transport: TransportKind): Promise<Pair> {
  const ran: string[] = [];
  const bash: AnyAgentTool = {
    name: 'bash',
    label: 'Bash',
    description: 'stands in for the core bash tool',
    executionMode: 'sequential',
    parameters: z.object({ command: z.string() }),
    execute: async (args: { command: string }) => {
      ran.push(args.command);
      return { content: [{ type: 'text', text: `ran ${args.command}` }], details: null };
    },
  };
  let lane: AgentLanePluginView | undefined;
  const session = await startTestSessionHost({
    transport,
    facets: [
      { id: '@test/model', facet: modelProviderFacet(createOfflineProvider()) },
      { id: '@test/core', facet: (context) => void context.tools.add((draft) => draft.set('bash', bash)) },
      { id: permissionsId, facet: permissionsSessionFacet },
      { id: '@test/driver', facet: (context) => void (lane = context.agent.main) },
    ],
  });
  cleanups.push(() => session.close());
  if (lane === undefined) throw new Error('the driver facet did not run');
  const driven = lane;
  const tui = await startTestTuiHost({
    facets: { [permissionsId]: permissionsTuiFacet },
    client: await session.connect(),
    rows: 30,
  });
  cleanups.push(() => tui.stop());
  await eventually(() => session.host.rpc.stats().some((stats) => stats.subscriptions > 0));
  return {
    session,
    tui,
    ran,
    async bash(command) {
      const text = `/tool bash ${JSON.stringify({ command })}`;
      const accepted = await driven.prompt([{ role: 'user', content: [{ type: 'text', text }] }], BACKGROUND_CONTEXT);
      if (accepted.isErr()) throw new Error(accepted.error.message);
      return accepted.value.operationId;
    },
    settled: (operationId) => driven.settled(operationId),
    shows: (text) => shows(tui, text),
    hides: (text) => hides(tui, text),
  };
}

async function toolResults(session: TestSessionHost): Promise<ToolResultMessage[]> {
  return (await durableMessages(session)).filter((message): message is ToolResultMessage => message.role === 'tool');
}

describe.each(TRANSPORTS)('the permission dialog over %s', (transport) => {
  it('3 denies: the dialog closes, the result says denied, nothing ran, the run settles', async () => {
    const pair = await start(transport);
    const operationId = await pair.bash('rm -rf build');
    await pair.shows('Allow bash? rm -rf build');

    await pair.tui.type('3\r');
    await pair.hides('Allow bash?');

    expect(await pair.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect(pair.ran).toEqual([]);
    expect(await toolResults(pair.session)).toMatchObject([
      { isError: true, details: { permission: 'denied', code: 'user_denied' } },
    ]);
  });

  it('Esc denies', async () => {
    const pair = await start(transport);
    const operationId = await pair.bash('rm -rf build');
    await pair.shows('Allow bash?');
    await pair.tui.type('\x1b');
    await pair.settled(operationId);
    expect(pair.ran).toEqual([]);
    expect((await toolResults(pair.session))[0]?.details).toMatchObject({ code: 'user_denied' });
  });

  it('1 allows once: it runs, and the same command is asked again next time', async () => {
    const pair = await start(transport);
    const first = await pair.bash('echo hi');
    await pair.shows('Allow bash? echo hi');
    await pair.tui.type('1\r');
    await pair.settled(first);
    expect(pair.ran).toEqual(['echo hi']);

    const second = await pair.bash('echo hi');
    await pair.shows('Allow bash? echo hi');
    await pair.tui.type('3\r');
    await pair.settled(second);
    expect(pair.ran).toEqual(['echo hi']);
  });

  it('2 allows that exact command for the session: it then runs without a dialog, and another command asks', async () => {
    const pair = await start(transport);
    const first = await pair.bash('npm test');
    await pair.shows('2. Allow for this session (this exact command)');
    await pair.tui.type('2\r');
    await pair.settled(first);

    await pair.settled(await pair.bash('npm test'));
    expect(pair.ran).toEqual(['npm test', 'npm test']);

    const other = await pair.bash('npm publish');
    await pair.shows('Allow bash? npm publish');
    await pair.tui.type('3\r');
    await pair.settled(other);
    expect(pair.ran).toEqual(['npm test', 'npm test']);
  });
});
