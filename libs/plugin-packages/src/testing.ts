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

/**
 * The fixture package: a session facet, an inner plugin (`./inner`, a TUI facet) and a skills folder in its `pi`
 * field, unless `pi` replaces that field.
 */
export async function packedPluginFixture(pi?: unknown): Promise<PackedPluginFixture> {
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
  const tarball = join(root, (JSON.parse(stdout) as Array<{ filename: string }>)[0]?.filename ?? '');
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
