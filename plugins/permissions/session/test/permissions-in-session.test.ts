import { describe, expect, it } from 'vitest';
import { ConfirmInteraction, type ConfirmRequest, type ConfirmResponse } from '@pi/permissions';
import type { AnyAgentTool, CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { startTestSessionHost } from '@pi/host-session/testing';
import { permissionsSessionFacet, pluginId } from '../src/index';
import {
  bashPrompt,
  durableToolResults,
  serving,
  standInTools,
  startPermissionsHost,
  type PermissionsHost,
} from './permissions-host';

/** The registry's state after its next rebuild (rebuilds are coalesced into a microtask after a change). */
function nextRebuild(registry: CodingAgentSessionPluginContext['tools']): Promise<ReadonlyMap<string, AnyAgentTool>> {
  return new Promise((resolve) => {
    const stop = registry.onRebuild((state) => {
      stop();
      resolve(state);
    });
  });
}

/** A connected client that answers every confirmation with `decision` and records what it was asked. */
async function answering(host: PermissionsHost, decision: ConfirmResponse['decision']) {
  const asked: ConfirmRequest[] = [];
  const client = await host.fixture.connect();
  client.handle(ConfirmInteraction, async (request) => {
    asked.push(request);
    return { decision };
  });
  await serving(host.fixture, 1);
  return asked;
}

describe('@pi/permissions in a session host', () => {
  it('wraps bash, write and edit, keeping their names and schemas, and leaves other tools alone', async () => {
    const host = await startPermissionsHost('loopback');
    const current = host.registry.current();
    for (const name of ['bash', 'write', 'edit'] as const) {
      expect(current.get(name)).not.toBe(host.tools[name]);
      expect(current.get(name)).toMatchObject({ name, parameters: host.tools[name].parameters });
    }
    expect(current.get('read')).toBe(host.tools.read);
  });

  it('removing the plugin and rebuilding leaves the tools exactly unwrapped, and bash then runs unasked', async () => {
    const host = await startPermissionsHost('loopback');
    const asked = await answering(host, 'deny');
    const rebuilt = nextRebuild(host.registry);
    host.removePermissions();
    const tools = await rebuilt;
    for (const name of ['bash', 'write', 'edit', 'read'] as const) expect(tools.get(name)).toBe(host.tools[name]);

    await host.run(bashPrompt('echo unguarded'));
    expect(asked).toEqual([]);
    expect(host.runs).toEqual([{ command: 'echo unguarded' }]);
  });

  it('in allow-all mode contributes nothing: the tools stay exactly as their plugin made them', async () => {
    const host = await startPermissionsHost('loopback', { mode: 'allow-all' });
    for (const name of ['bash', 'write', 'edit', 'read'] as const) {
      expect(host.registry.current().get(name)).toBe(host.tools[name]);
    }
  });

  it('in deny-all mode denies without asking anyone, and the run goes on', async () => {
    const host = await startPermissionsHost('loopback', { mode: 'deny-all' });
    const asked = await answering(host, 'allow_once');

    const { outcome } = await host.run(bashPrompt('echo hi'));

    expect(outcome).toEqual({ outcome: 'completed', error: null });
    expect(asked).toEqual([]);
    expect(host.runs).toEqual([]);
    expect(await durableToolResults(host.fixture)).toMatchObject([
      {
        toolName: 'bash',
        isError: true,
        details: { permission: 'denied', tool: 'bash', code: 'deny_all' },
        content: [{ type: 'text', text: expect.stringContaining('bash did not run (deny_all)') }],
      },
    ]);
  });

  it('keeps "allow for this session" across registry rebuilds', async () => {
    const host = await startPermissionsHost('loopback');
    const asked = await answering(host, 'allow_session');
    await host.run(bashPrompt('echo again'));
    expect(asked).toHaveLength(1);

    // Another plugin's change replays every contribution, the wrapper included.
    const rebuilt = nextRebuild(host.registry);
    host.registry.add((draft) => draft.set('ls', host.tools.read));
    await rebuilt;

    await host.run(bashPrompt('echo again'));
    expect(asked).toHaveLength(1);
    expect(host.runs).toEqual([{ command: 'echo again' }, { command: 'echo again' }]);
  });

  it('refuses to start on a bad config, with one line saying what the config must be', async () => {
    const core = standInTools();
    const start = startTestSessionHost({
      facets: [
        { id: '@test/core-tools', facet: core.facet },
        { id: pluginId, facet: permissionsSessionFacet, config: { mode: 'deny_all' } },
      ],
    });
    await expect(start).rejects.toThrow(
      /@pi\/permissions config must be \{ "mode"\?: "ask" \| "allow-all" \| "deny-all"/,
    );
  });
});
