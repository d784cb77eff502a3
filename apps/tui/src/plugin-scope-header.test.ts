import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { startRpcFixture, type TransportKind } from '@pi/test-support';
import { PLUGIN_SCOPE_HEADER_ID, pluginScopeHeader } from './plugin-scope-header';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tuiWith(transport: TransportKind, header: ReturnType<typeof pluginScopeHeader>): Promise<TestTuiHost> {
  const rpc = await startRpcFixture(transport, { provide: () => undefined });
  cleanups.push(() => rpc.close());
  const tui = await startTestTuiHost({
    facets: { [header.id]: header.facet },
    client: await rpc.connect(),
    columns: 100,
  });
  cleanups.push(() => tui.stop());
  return tui;
}

describe.each<TransportKind>(['loopback', 'websocket'])('the plugin scope header (%s)', (transport) => {
  it('names the project’s plugins and their manifest, and each plugin set problem', async () => {
    const tui = await tuiWith(
      transport,
      pluginScopeHeader({
        scopes: [
          { scope: 'builtin', source: 'the built-in manifest', plugins: ['@pi/chat'] },
          { scope: 'global', source: '/home/u/.config/pi/plugins.json', plugins: ['mine'] },
          { scope: 'project', source: '/repo/.pi/plugins.json', plugins: ['repo-lint', 'repo-deploy'] },
        ],
        problems: ['manifest /home/u/.config/pi/plugins.json is not valid JSON (the global plugins were not loaded)'],
      }),
    );
    const screen = await tui.waitForScreen((text) => text.includes('Plugins left out'));
    expect(screen).toContain('Project plugins: repo-lint, repo-deploy (/repo/.pi/plugins.json)');
    expect(screen).toContain('Plugins left out: manifest /home/u/.config/pi/plugins.json is not valid JSON');
    expect(screen).not.toContain('@pi/chat');
    expect(screen).not.toContain('mine');
  });

  it('says nothing when no project plugin runs and nothing was left out', async () => {
    const header = pluginScopeHeader({
      scopes: [{ scope: 'global', source: '/home/u/.config/pi/plugins.json', plugins: ['mine'] }],
      problems: [],
    });
    expect(header.id).toBe(PLUGIN_SCOPE_HEADER_ID);
    const tui = await tuiWith(transport, header);
    tui.host.flush();
    expect(tui.screen()).not.toContain('plugins');
    expect(tui.screen()).not.toContain('mine');
  });
});
