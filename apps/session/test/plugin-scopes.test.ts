import { cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { Diagnostics, defineRemoteService, z, type DiagnosticEntry } from '@pi/plugin-api';
import { loadedModules, moduleLogEnvironment, nextValue } from '@pi/test-support';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  readConnectionFile,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

const WORKSPACE = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const Greeting = defineRemoteService<{ greet(name: string, context: typeof BACKGROUND_CONTEXT): Promise<string> }>(
  'greeting',
  { methods: { greet: { args: [z.string()], result: z.string() } }, state: {}, events: {} },
);

const sandboxes: SessionSandbox[] = [];
const processes: SessionProcess[] = [];
const clients: PiClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(processes.splice(0).map((process) => process.stop('SIGKILL')));
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.remove()));
});

async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value));
}

/**
 * A session sandbox with a small base manifest, the example hello plugin as the user's global plugin
 * (`<config>/plugins.json`), and a project plugin in `.pi/` whose one module is given.
 */
async function scopedSandbox(project: { pi: unknown; module: string }) {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  const manifest = join(sandbox.root, 'manifest.json');
  await writeJson(manifest, { plugins: ['@pi/settings'] });
  const hello = join(sandbox.configDir, 'hello-plugin');
  await cp(join(WORKSPACE, 'examples', 'hello-plugin'), hello, { recursive: true });
  await mkdir(join(hello, 'node_modules', '@pi'), { recursive: true });
  await symlink(join(WORKSPACE, 'libs', 'plugin-api'), join(hello, 'node_modules', '@pi', 'plugin-api'));
  await writeJson(join(sandbox.configDir, 'plugins.json'), { plugins: ['./hello-plugin'] });
  const projectPlugin = join(sandbox.cwd, '.pi', 'project-plugin');
  await writeJson(join(projectPlugin, 'package.json'), { name: 'project-plugin', type: 'module', pi: project.pi });
  await writeFile(join(projectPlugin, 'index.mjs'), project.module);
  const projectManifest = join(sandbox.cwd, '.pi', 'plugins.json');
  await writeJson(projectManifest, { plugins: ['./project-plugin'] });
  return { sandbox, manifest, projectManifest, projectModule: join(projectPlugin, 'index.mjs') };
}

async function started(sandbox: SessionSandbox, manifest: string, env?: NodeJS.ProcessEnv) {
  const process = runPiSession(sandbox, [...sandbox.flags, '--manifest', manifest], env);
  processes.push(process);
  const { socketPath, token } = await readConnectionFile((await process.listening()).connectionFile);
  const client = (await connect({ socketPath, token, reconnect: false }))._unsafeUnwrap();
  clients.push(client);
  return { process, client };
}

async function loadEntries(client: PiClient): Promise<DiagnosticEntry[]> {
  const diagnostics = await client.use(Diagnostics);
  const state = await nextValue(diagnostics.state, (value) => value.entries.some((entry) => entry.kind === 'load'));
  return state.entries.filter((entry) => entry.kind === 'load');
}

describe('global and project plugins in pi-session', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('loads the user’s global plugin and the project’s, after the base manifest', async () => {
    const { sandbox, manifest, projectModule } = await scopedSandbox({
      pi: { apiVersion: '2.0', facets: { session: './index.mjs' } },
      module: 'export default () => {};',
    });
    const log = join(sandbox.root, 'modules.log');
    const { client } = await started(sandbox, manifest, moduleLogEnvironment(log));

    const greeting = await client.use(Greeting);
    expect(await greeting.greet('Ada', BACKGROUND_CONTEXT)).toBe('Hello, Ada!');
    const modules = await loadedModules(log);
    const position = (suffix: string) => modules.findIndex((url) => url.endsWith(suffix));
    expect(position('/plugins/settings/session/src/index.ts')).toBeGreaterThanOrEqual(0);
    expect(position('/config/hello-plugin/session.js')).toBeGreaterThan(
      position('/plugins/settings/session/src/index.ts'),
    );
    expect(position(projectModule)).toBeGreaterThan(position('/config/hello-plugin/session.js'));
  });

  it('a broken project manifest is a diagnostic naming the file; the session and the global plugin still run', async () => {
    const { sandbox, manifest, projectManifest } = await scopedSandbox({
      pi: { apiVersion: '2.0', facets: { session: './index.mjs' } },
      module: 'export default () => {};',
    });
    await writeJson(projectManifest, '{ "plugins": [');
    const { client, process } = await started(sandbox, manifest);

    const [entry] = await loadEntries(client);
    expect(entry?.message).toContain(`manifest ${projectManifest} is not valid JSON`);
    expect(entry?.severity).toBe('error');
    expect(process.stderr()).toContain(projectManifest);
    expect(await (await client.use(Greeting)).greet('Bo', BACKGROUND_CONTEXT)).toBe('Hello, Bo!');
  });

  it('refuses a project module that is the session and the TUI facet with a module-level let, naming file and line', async () => {
    const { sandbox, manifest, projectModule } = await scopedSandbox({
      pi: { apiVersion: '2.0', facets: { session: './index.mjs', tui: './index.mjs' } },
      module: 'let count = 0;\nexport default { session: () => { count += 1; }, tui: () => count };\n',
    });
    const { client } = await started(sandbox, manifest);

    const [entry] = await loadEntries(client);
    expect(entry?.message).toContain(`${projectModule}:1:5: "count" (let)`);
    expect(entry?.message).toContain('the project plugins were not loaded');
  });
});
