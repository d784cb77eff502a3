import { describe, expect, it } from 'vitest';
import { packedManifest, packedProgramManifest } from './packed-manifest';
import type { PackageManifest } from './workspace-packages';

const client: PackageManifest = { name: '@pi/client', version: '0.0.0', dependencies: { '@pi/remote': '0.0.0' } };
const OPTIONS = { nodeEngine: '>=20.19', typescript: ['5.9.3', '7.0.2'] };
const remote: PackageManifest = { name: '@pi/remote', version: '0.0.0', dependencies: { zod: '4.6.7', ws: '8.18.3' } };

describe('packedManifest', () => {
  it('takes each imported package as a caret range from the version a bundled package declares, zod as a peer', () => {
    const manifest = packedManifest(client, ['zod', 'ws', 'zod'], [client, remote], OPTIONS);
    expect(manifest.dependencies).toEqual({ ws: '^8.18.3' });
    expect(manifest.peerDependencies).toEqual({ zod: '^4.6.7' });
    expect(manifest.exports).toEqual({ '.': { types: './index.d.ts', import: './index.js', default: './index.js' } });
    expect(manifest).toMatchObject({ name: '@pi/client', type: 'module', engines: { node: '>=20.19' } });
    expect(manifest.checkedWith).toEqual({ typescript: ['5.9.3', '7.0.2'] });
  });

  it('refuses an import that no bundled package declares', () => {
    expect(() => packedManifest(client, ['superjson'], [client, remote], OPTIONS)).toThrow(/no package declares/);
  });

  it('refuses two versions of one dependency', () => {
    const other = { ...remote, name: '@pi/other', dependencies: { zod: '4.6.8' } };
    expect(() => packedManifest(client, ['zod'], [remote, other], OPTIONS)).toThrow(/4\.6\.7 and 4\.6\.8/);
  });

  it('refuses a range instead of an exact version', () => {
    const ranged = { ...remote, dependencies: { zod: '^4.6.7' } };
    expect(() => packedManifest(client, ['zod'], [ranged], OPTIONS)).toThrow(/not an exact version/);
  });

  it('refuses an internal package left unbundled', () => {
    expect(() => packedManifest(client, ['@pi/remote'], [client, remote], OPTIONS)).toThrow(/left unbundled/);
  });
});

describe('packedProgramManifest', () => {
  const cli: PackageManifest = { name: '@pi/cli', version: '0.0.0', description: 'pi' };
  const hostTui: PackageManifest = { name: '@pi/host-tui', version: '0.0.0', dependencies: { blessed: '0.1.81' } };
  const repo: PackageManifest = {
    name: '@pi/repo',
    version: '0.0.0',
    dependencies: { '@photostructure/sqlite': '1.2.1' },
  };
  const bin = { pi: './bin/pi.mjs', 'pi-tui': './tui/pi-tui.mjs' };

  it('pins each package the bundles import at run time to the exact version a workspace package declares', () => {
    const manifest = packedProgramManifest(
      cli,
      bin,
      '>=20.19',
      ['blessed', '@photostructure/sqlite', 'blessed'],
      [hostTui, repo],
    );
    expect(manifest).toEqual({
      name: '@pi/cli',
      version: '0.0.0',
      description: 'pi',
      type: 'module',
      bin,
      engines: { node: '>=20.19' },
      dependencies: { '@photostructure/sqlite': '1.2.1', blessed: '0.1.81' },
    });
  });

  it('has no dependencies field when the bundles import nothing from node_modules', () => {
    expect(packedProgramManifest(cli, bin, '>=20.19')).not.toHaveProperty('dependencies');
  });

  it('refuses an import no workspace package declares, a range, and an internal package left unbundled', () => {
    expect(() => packedProgramManifest(cli, bin, '>=20.19', ['blessed'], [repo])).toThrow(/no package declares/);
    const ranged = { ...hostTui, dependencies: { blessed: '^0.1.81' } };
    expect(() => packedProgramManifest(cli, bin, '>=20.19', ['blessed'], [ranged])).toThrow(/not an exact version/);
    expect(() => packedProgramManifest(cli, bin, '>=20.19', ['@pi/repo'], [repo])).toThrow(/left unbundled/);
  });
});
