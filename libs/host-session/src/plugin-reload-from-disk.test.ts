import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { err, ok } from 'neverthrow';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { loadFacets } from '@pi/host-kit';
import { createPluginSandbox, type PluginSandbox } from '@pi/host-kit/testing';
import { Diagnostics, SessionPlugins } from '@pi/plugin-api';
import type { RpcClient } from '@pi/transport-trpc';
import { startTestSessionHost } from './testing';

/**
 * An installed plugin whose session facet reports the version its helper module says. Installed (under
 * node_modules) so that vitest imports it with Node's own loader, where the module generation hook applies.
 */
async function installGreeter(sandbox: PluginSandbox): Promise<string> {
  return sandbox.install({
    name: 'disk-greeter',
    pi: { apiVersion: '2.0', facets: { session: './session.mjs' } },
    files: {
      'session.mjs':
        "import { version } from './version.mjs';\nexport default (context) => context.onActivate(() => context.diagnostics.report('info', `disk greeter ${version}`));\n",
      'version.mjs': "export const version = 'v1';\n",
    },
  });
}

/** The session's plugin set read from the sandbox, as `pi-session` reads its manifest again on a reload. */
function readFromDisk(sandbox: PluginSandbox) {
  const lookup = { baseDirectory: sandbox.root, packageRoots: [sandbox.root], source: 'manifest /test/manifest.json' };
  const manifest = { entries: [{ id: 'disk-greeter', config: null }] };
  return async (generation?: number) => {
    const loaded = await loadFacets(manifest, 'session', lookup, generation);
    return loaded.isOk() ? ok(loaded.value) : err(loaded.error.message);
  };
}

/** What the plugin reported so far, as the client's replica of the diagnostics shows it. */
const reports = async (client: RpcClient) =>
  (await client.use(Diagnostics)).state.value.entries
    .filter((entry) => entry.message.startsWith('disk greeter'))
    .map((entry) => entry.message);

describe.each(['loopback', 'websocket'] as const)('a plugin edited on disk, reloaded over %s', (transport) => {
  it('is picked up by a reload on the same connection, and a broken edit keeps the running version', async () => {
    await using sandbox = await createPluginSandbox();
    const folder = await installGreeter(sandbox);
    const read = readFromDisk(sandbox);
    await using session = await startTestSessionHost({
      transport,
      facets: (await read())._unsafeUnwrap(),
      reloadSource: (generation) => read(generation),
    });
    const client = await session.connect();
    const plugins = await client.use(SessionPlugins);
    expect(await reports(client)).toEqual(['disk greeter v1']);

    await writeFile(join(folder, 'version.mjs'), "export const version = 'v2';\n");
    expect(await plugins.reload(BACKGROUND_CONTEXT)).toMatchObject({ ok: true, generation: 2 });
    expect(await reports(client)).toEqual(['disk greeter v1', 'disk greeter v2']);

    await writeFile(join(folder, 'version.mjs'), 'export const version = ;\n');
    const unparsable = await plugins.reload(BACKGROUND_CONTEXT);
    expect(unparsable).toMatchObject({ ok: false, generation: 2 });
    expect(unparsable.message).toMatch(/disk-greeter.*failed.*plugin set 2 stays live/);

    await writeFile(join(folder, 'version.mjs'), "export const version = 'v3';\n");
    await writeFile(join(folder, 'session.mjs'), "export default () => { throw new Error('broken on disk'); };\n");
    const thrown = await plugins.reload(BACKGROUND_CONTEXT);
    expect(thrown.message).toMatch(
      /plugin "disk-greeter" failed during setup: broken on disk; plugin set 2 stays live/,
    );
    expect(await reports(client)).toEqual(['disk greeter v1', 'disk greeter v2']);
    expect(session.host.rpc.stats()).toHaveLength(1);
  });
});
