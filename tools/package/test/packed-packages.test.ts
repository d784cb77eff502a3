import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_MANIFEST } from '@pi/builtin-plugins';
import { PLUGIN_API_VERSION } from '@pi/plugin-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackage, packPackage, type PackedManifest } from '../src/index';
import { readManifest } from '../src/workspace-packages';
import { WORKSPACE_ROOT } from '../src/workspace-root';
import { createConsumerFolder, type ConsumerFolder } from './consumer-folder';
import { startSessionHost } from './session-host';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'consumer');
const PACKED = ['@pi/client', '@pi/plugin-api', '@pi/session-api'];

describe('@pi/client and @pi/plugin-api packed and installed outside the workspace', () => {
  let scratch: string;
  let consumer: ConsumerFolder;
  let compiled: Promise<void>;

  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'pi-packs-'));
    const tarballs: string[] = [];
    const zodVersions = new Set<string | undefined>();
    for (const name of PACKED) {
      const built = await buildPackage(name, { outDir: join(scratch, name) });
      zodVersions.add(built.manifest.dependencies['zod']);
      tarballs.push(await packPackage(built, scratch));
    }

    // The consumer is itself a plugin package (its `pi` field names the compiled facet) and a tool.
    consumer = await createConsumerFolder();
    await cp(FIXTURE, consumer.dir, { recursive: true });
    const pi = { id: 'greeter', apiVersion: PLUGIN_API_VERSION, facets: { session: './dist/greeter-plugin.js' } };
    await consumer.writeFile('package.json', JSON.stringify({ name: 'greeter', private: true, type: 'module', pi }));
    const tools = (await readManifest(WORKSPACE_ROOT)).devDependencies ?? {};
    // The consumer's schemas use the zod the packages were built with.
    expect(zodVersions.size).toBe(1);
    await consumer.install([
      ...tarballs,
      `zod@${[...zodVersions][0]}`,
      `typescript@${tools['typescript']}`,
      `@types/node@${tools['@types/node']}`,
    ]);
    // One compile serves the type test and the run.
    compiled = consumer.compile();
    compiled.catch(() => undefined);
  });

  afterAll(async () => {
    await consumer?.[Symbol.asyncDispose]();
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  });

  async function installedManifest(name: string): Promise<PackedManifest> {
    const dir = join(consumer.dir, 'node_modules', name);
    return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackedManifest;
  }

  it.each(PACKED)('%s ships JavaScript and declarations with no @pi import and exact dependencies', async (name) => {
    const dir = join(consumer.dir, 'node_modules', name);
    const manifest = await installedManifest(name);
    expect(manifest.exports['.']).toEqual({ types: './index.d.ts', import: './index.js' });
    for (const [dependency, version] of Object.entries(manifest.dependencies)) {
      expect(dependency).not.toMatch(/^@pi\//);
      expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    }
    for (const file of ['index.js', 'index.d.ts']) {
      expect(await readFile(join(dir, file), 'utf8')).not.toMatch(/(from|import\()\s*["']@pi\//);
    }
  });

  it('compiles a plugin and a tool written against the packed types (strict, declarations checked)', async () => {
    await expect(compiled).resolves.toBeUndefined();
  });

  it('runs under plain node: a tool connects to a real pi-session that loaded the plugin, and calls it', async () => {
    await compiled;
    const home = join(scratch, 'host');
    const manifest = join(scratch, 'manifest.json');
    await writeFile(manifest, JSON.stringify({ plugins: [...DEFAULT_MANIFEST.plugins, consumer.dir] }));
    await using host = await startSessionHost(home, manifest);
    const env = { PI_SOCKET: host.socketPath, PI_TOKEN: host.token };
    const output: unknown = JSON.parse(await consumer.node('dist/use-host.js', env));
    expect(output).toEqual({
      refused: 'not_authorized',
      status: 'connected',
      models: expect.arrayContaining(['echo']) as unknown,
      greeting: 'hello outside from greeter',
      greeted: 1,
    });

    // A script that only knows the project's directory finds the session through its connection file.
    const found = await consumer.node('dist/find-session.js', { PI_PROJECT: host.cwd, PI_DATA: host.dataDir });
    expect(JSON.parse(found)).toEqual(expect.arrayContaining(['echo']));
    const nowhere = join(scratch, 'no-session-here');
    await expect(consumer.node('dist/find-session.js', { PI_PROJECT: nowhere, PI_DATA: host.dataDir })).rejects.toThrow(
      `find-session: No session is running in ${nowhere}`,
    );
  });
});
