import { afterEach, describe, expect, it } from 'vitest';
import { ProvidingSide } from '@pi/host-kit';
import { serveHost } from '@pi/test-support';
import { createRpcClient, tokenAuthentication } from '@pi/transport-trpc';
import { startTestTuiHost, type TestTuiHost } from './testing';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A test TUI host with no facets, attached to a host that provides nothing. */
async function bareTui(): Promise<TestTuiHost> {
  const rpc = new ProvidingSide().expose({
    authenticate: tokenAuthentication('token', { principal: 't', claims: {} }),
    keepAlive: false,
  });
  const transport = await serveHost('loopback', rpc);
  const client = createRpcClient({ socketFactory: transport.socketFactory, connectionParams: { token: 'token' } });
  await client.whenConnected();
  const tui = await startTestTuiHost({ facets: {}, client });
  cleanups.push(async () => {
    await tui.stop();
    client.close();
    rpc.close();
    await transport.close();
  });
  return tui;
}

describe('waiting for the screen of a test TUI host', () => {
  it('resolves with the screen once a paint the host makes by itself shows what is awaited', async () => {
    const tui = await bareTui();
    // Written without the helper's forced paint: only the host's own frame can show it.
    tui.terminal.input.write('typed by hand');
    const screen = await tui.waitForScreen((text) => text.includes('typed by hand'));
    expect(screen).toContain('typed by hand');
  });

  it('rejects after its timeout, showing the screen as it was', async () => {
    const tui = await bareTui();
    await expect(tui.waitForScreen((text) => text.includes('never shown'), 50)).rejects.toThrow(
      /did not show what was awaited within 50 ms:\n/,
    );
  });
});
