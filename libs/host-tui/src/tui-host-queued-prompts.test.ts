import { afterEach, describe, expect, it } from 'vitest';
import { ProvidingSide, runFacets } from '@pi/host-kit';
import { throwEffectFailure } from '@pi/host-kit/testing';
import type { CodingAgentTuiPluginContext, ProvidingPluginContext } from '@pi/plugin-api';
import { Catalog, createCatalog, serveHost, type TransportKind } from '@pi/test-support';
import { createRpcClient, tokenAuthentication } from '@pi/transport-trpc';
import { createVirtualTerminal } from './testing';
import { startTuiHost } from './tui-host';

const TOKEN = 'tui-token';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A session host whose server is down until `restore`, and a client already trying to reach it. */
async function unreachableSession(kind: TransportKind) {
  const side = new ProvidingSide();
  const providers = await runFacets(
    [
      {
        id: '@t/catalog',
        config: null,
        facet: (context: ProvidingPluginContext) => context.provide(Catalog, createCatalog()),
      },
    ],
    (scope, facet) => side.contextFor(scope, facet.id, facet.config),
    throwEffectFailure,
  );
  const rpc = side.expose({
    authenticate: tokenAuthentication(TOKEN, { principal: 't', claims: {} }),
    keepAlive: false,
  });
  const transport = await serveHost(kind, rpc);
  await transport.stop();
  const client = createRpcClient({
    socketFactory: transport.socketFactory,
    connectionParams: { token: TOKEN },
    reconnect: { minDelayMs: 10, maxDelayMs: 20 },
    heartbeat: false,
  });
  cleanups.push(async () => {
    client.close();
    rpc.close();
    await transport.close();
    await providers._unsafeUnwrap().stop();
  });
  return { transport, client };
}

/** A facet taking prompts and a `/mark` command, logging both in the order they arrive; `settled` after `count`. */
function recordingFacet(count: number) {
  const heard: string[] = [];
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const hear = (line: string) => {
    heard.push(line);
    if (heard.length === count) settle();
  };
  const facet = (context: CodingAgentTuiPluginContext) => {
    context.editor.onSubmit((text, _context, action) => hear(`${action}:${text}`));
    context.commands.register({
      id: 't.mark',
      slash: 'mark',
      description: 'marks the log',
      needsSession: true,
      run: (args) => hear(`/mark ${args}`),
    });
  };
  return { heard, settled, facet };
}

describe.each<TransportKind>(['loopback', 'websocket'])('prompts typed before the TUI attached (%s)', (kind) => {
  it('are submitted once connected, in order, as follow-ups, a slash command among them run as typed', async () => {
    const { transport, client } = await unreachableSession(kind);
    const recording = recordingFacet(3);
    const host = (
      await startTuiHost({
        facets: [{ id: '@t/chat', config: null, facet: recording.facet }],
        client,
        terminal: createVirtualTerminal(80, 24),
        draft: 'still typing',
        submitWhenConnected: ['first prompt', '/mark between', 'second prompt'],
      })
    )._unsafeUnwrap();
    cleanups.push(() => host.stop());
    expect(client.connection.value.status).not.toBe('connected');
    expect(recording.heard).toEqual([]);

    await transport.restore();
    await recording.settled;
    expect(recording.heard).toEqual(['followUp:first prompt', '/mark between', 'followUp:second prompt']);
    expect(host.draft()).toBe('still typing');
  });
});
