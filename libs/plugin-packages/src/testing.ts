import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** npm is slow on a busy machine: a test that installs or removes runs it once or twice. */
export const NPM_TIMEOUT_MS = 120_000;

/** An empty project, a config dir, and `@acme/pi-greeter` packed with `npm pack` (no network). */
export interface PackedPluginFixture {
  readonly root: string;
  readonly tarball: string;
  readonly project: string;
  readonly configDir: string;
  readonly env: NodeJS.ProcessEnv;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2));
}

/** A package packed with `npm pack` (no network), in a temporary folder of its own. */
export interface PackedPlugin extends AsyncDisposable {
  readonly tarball: string;
}

/**
 * The fixture package, `@acme/pi-greeter`: a session facet, an inner plugin (`./inner`, a TUI facet) and a skills
 * folder in its `pi` field, unless `pi` replaces that field. Installing reads the tarball and never writes it, so
 * the tests of a file may share one packing (each `npm pack` costs ~0.5 s of CPU).
 */
export async function packPluginFixture(pi?: unknown): Promise<PackedPlugin> {
  const root = await mkdtemp(join(tmpdir(), 'pi-packages-'));
  const source = join(root, 'source');
  await writeJson(join(source, 'package.json'), {
    name: '@acme/pi-greeter',
    version: '1.2.3',
    type: 'module',
    files: ['*.mjs', 'inner', 'skills'],
    pi: pi ?? {
      apiVersion: '2.0',
      facets: { session: './session.mjs' },
      plugins: ['./inner'],
      skills: ['./skills'],
    },
  });
  await writeFile(join(source, 'session.mjs'), 'export default () => {};\n');
  await writeJson(join(source, 'inner', 'package.json'), {
    name: 'greeter-inner',
    type: 'module',
    pi: { apiVersion: '2.0', facets: { tui: './tui.mjs' } },
  });
  await writeFile(join(source, 'inner', 'tui.mjs'), 'export default () => {};\n');
  await mkdir(join(source, 'skills', 'greet'), { recursive: true });
  await writeFile(join(source, 'skills', 'greet', 'SKILL.md'), '---\nname: greet\ndescription: Greets\n---\n');
  const { stdout } = await run('npm', ['pack', source, '--pack-destination', root, '--json'], { cwd: root });
  return {
    tarball: join(root, (JSON.parse(stdout) as Array<{ filename: string }>)[0]?.filename ?? ''),
    [Symbol.asyncDispose]: () => rm(root, { recursive: true, force: true }),
  };
}

/** An empty project and config dir in a new temporary folder, to install `tarball` (a packed fixture) into. */
export async function pluginProjectFixture(tarball: string): Promise<PackedPluginFixture> {
  const root = await mkdtemp(join(tmpdir(), 'pi-packages-'));
  const project = join(root, 'project');
  await mkdir(project);
  return {
    root,
    tarball,
    project,
    configDir: join(root, 'config'),
    env: { ...process.env, HOME: root },
    [Symbol.asyncDispose]: () => rm(root, { recursive: true, force: true }),
  };
}

/** The fixture package packed (see `packPluginFixture`) and an empty project for it, removed together. */
export async function packedPluginFixture(pi?: unknown): Promise<PackedPluginFixture> {
  const packed = await packPluginFixture(pi);
  const fixture = await pluginProjectFixture(packed.tarball);
  return {
    ...fixture,
    async [Symbol.asyncDispose]() {
      await fixture[Symbol.asyncDispose]();
      await packed[Symbol.asyncDispose]();
    },
  };
}
