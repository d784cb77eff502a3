import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPluginPackage } from './plugin-package';
import { createPluginSandbox, type PluginSandbox } from './testing';

const lookupIn = (sandbox: PluginSandbox) => ({
  baseDirectory: sandbox.root,
  packageRoots: [sandbox.root],
  source: 'manifest /test/manifest.json',
});

describe('a plugin named by its pi.id', () => {
  it('is found among the installed packages when no package has that name', async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.install({ name: 'pi-plugin-other', pi: { id: 'other', apiVersion: '2.0', facets: {} } });
    const folder = await sandbox.install({
      name: 'pi-plugin-tally',
      pi: { id: 'tally', apiVersion: '2.0', facets: {} },
    });
    const found = await findPluginPackage('tally', lookupIn(sandbox));
    expect(found._unsafeUnwrap()).toMatchObject({ id: 'tally', reference: 'tally', directory: folder });
  });

  it('is found in a scoped package too', async () => {
    await using sandbox = await createPluginSandbox();
    const folder = await sandbox.install({
      name: '@acme/pi-tally',
      pi: { id: 'tally', apiVersion: '2.0', facets: {} },
    });
    expect((await findPluginPackage('tally', lookupIn(sandbox)))._unsafeUnwrap().directory).toBe(folder);
  });

  it('yields to a package of that name', async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.install({ name: 'pi-plugin-tally', pi: { id: 'tally', apiVersion: '2.0', facets: {} } });
    const named = await sandbox.install({ name: 'tally', pi: { apiVersion: '2.0', facets: {} } });
    expect((await findPluginPackage('tally', lookupIn(sandbox)))._unsafeUnwrap().directory).toBe(named);
  });

  it('is unknown when no installed package has that id', async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.install({ name: 'pi-plugin-tally', pi: { id: 'tally', apiVersion: '2.0', facets: {} } });
    expect((await findPluginPackage('tallies', lookupIn(sandbox)))._unsafeUnwrapErr()).toMatchObject({
      code: 'unknown_plugin',
      message: 'Unknown plugin "tallies" in manifest /test/manifest.json: no installed package has that name or pi.id',
    });
  });

  it("is looked for in each root's own node_modules only, not its parents' (a miss would read a whole tree)", async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.install({ name: 'pi-plugin-tally', pi: { id: 'tally', apiVersion: '2.0', facets: {} } });
    const below = { ...lookupIn(sandbox), packageRoots: [join(sandbox.root, 'project', '.pi')] };
    expect((await findPluginPackage('tally', below))._unsafeUnwrapErr().code).toBe('unknown_plugin');
    expect((await findPluginPackage('pi-plugin-tally', below))._unsafeUnwrap().id).toBe('tally');
  });
});
