import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NPM_TIMEOUT_MS, packedPluginFixture } from '@pi/plugin-packages/testing';
import { EXIT } from '../exit-codes';
import { isPackageCommand } from './package-command-line';
import { runPackageCommand } from './packages';

/** Runs `pi <argv>` as the pi program would for a package command, capturing what it prints. */
async function pi(argv: string[], fixture: { project: string; configDir: string; env: NodeJS.ProcessEnv }) {
  const out: string[] = [];
  const err: string[] = [];
  expect(isPackageCommand(argv)).toBe(true);
  const code = await runPackageCommand([...argv, '--config-dir', fixture.configDir], {
    io: { out: (line) => out.push(line), err: (line) => err.push(line) },
    env: fixture.env,
    cwd: fixture.project,
  });
  return { code, out, err };
}

describe('pi install, pi list and pi remove', { timeout: NPM_TIMEOUT_MS }, () => {
  it('install -l of a packed plugin from an empty project, then list, then remove', async () => {
    await using fixture = await packedPluginFixture();

    const installed = await pi(['install', fixture.tarball, '-l'], fixture);
    expect(installed).toMatchObject({ code: EXIT.ok, err: [] });
    const manifest = join(fixture.project, '.pi', 'plugins.json');
    expect(installed.out[0]).toBe(
      `Installed @acme/pi-greeter@1.2.3 (project): plugins @acme/pi-greeter, ./packages/node_modules/@acme/pi-greeter/inner; skills; plugins in ${manifest}`,
    );
    expect(JSON.parse(await readFile(manifest, 'utf8')).plugins).toContain('@acme/pi-greeter');

    const listed = await pi(['list', '--json'], fixture);
    expect(JSON.parse(listed.out[0] ?? '')).toEqual([
      expect.objectContaining({ scope: 'project', name: '@acme/pi-greeter', version: '1.2.3' }),
    ]);
    expect((await pi(['list'], fixture)).out).toEqual([
      '@acme/pi-greeter@1.2.3 (project): plugins @acme/pi-greeter, ./packages/node_modules/@acme/pi-greeter/inner; skills',
    ]);

    const removed = await pi(['remove', '@acme/pi-greeter', '-l'], fixture);
    expect(removed.code).toBe(EXIT.ok);
    expect(JSON.parse(await readFile(manifest, 'utf8'))).toEqual({ plugins: [] });
    expect((await pi(['list'], fixture)).out).toEqual(['No packages installed']);
  });

  it.each([
    { argv: ['install'], says: 'install takes one operand: pi install <source> [-l]' },
    { argv: ['install', 'a', 'b'], says: 'install takes one operand' },
    { argv: ['remove'], says: 'remove takes one operand: pi remove <name> [-l]' },
    { argv: ['list', 'extra'], says: 'list takes no operand' },
    { argv: ['install', 'x', '--session', 's'], says: "Unknown option '--session'" },
  ])('refuses $argv with a usage error', async ({ argv, says }) => {
    const result = await pi(argv, { project: '/nowhere', configDir: '/nowhere/config', env: {} });
    expect(result.code).toBe(EXIT.usage);
    expect(result.err.join('\n')).toContain(says);
  });

  it('refuses to remove a package the global scope has not installed', async () => {
    const result = await pi(['remove', '@acme/absent'], {
      project: '/nowhere',
      configDir: '/nowhere/config',
      env: {},
    });
    expect(result).toMatchObject({ code: EXIT.failed, out: [] });
    expect(result.err[0]).toMatch(/^pi: not_installed: @acme\/absent is not installed in \/nowhere\/config\/packages/);
  });

  it('leaves every other command to the session CLI', () => {
    expect(isPackageCommand(['services'])).toBe(false);
    expect(isPackageCommand(['call', 'x.install'])).toBe(false);
    expect(isPackageCommand(['-p', 'list'])).toBe(false);
    expect(isPackageCommand(['--session', 'install', 'status'])).toBe(false);
    expect(isPackageCommand(['--json', 'list'])).toBe(true);
  });
});
