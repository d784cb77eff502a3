import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTestTuiHost } from '@pi/host-tui/testing';
import type { CodingAgentTuiPluginContext } from '@pi/plugin-api';
import { createRpcClient, webSocketFactory } from '@pi/transport-trpc';
import type { SessionHost } from './session-host';

type TuiFacet = (context: CodingAgentTuiPluginContext) => void | Promise<void>;

/**
 * Loads the installed tally example's compiled TUI facet into a TUI host attached to `host`, types `command` and
 * resolves with the count the facet shows (`tally: N`).
 */
export async function runTallyInTui(example: string, host: SessionHost, command: string): Promise<number> {
  const facet = (await import(pathToFileURL(join(example, 'dist', 'tui.js')).href)) as { default: TuiFacet };
  const client = createRpcClient({
    socketFactory: webSocketFactory({ socketPath: host.socketPath }),
    connectionParams: { token: host.token },
  });
  await client.whenConnected();
  const tui = await startTestTuiHost({ facets: { tally: facet.default }, client });
  try {
    await tui.type(`${command}\r`);
    const screen = await tui.waitForScreen((text) => /tally: \d+/.test(text));
    return Number(/tally: (\d+)/.exec(screen)?.[1]);
  } finally {
    await tui.stop();
    client.close();
  }
}
