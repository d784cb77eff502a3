import { cp, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { defineRemoteService, z, type RemoteEvents, type RemoteState } from '@pi/plugin-api';
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

/** The example plugin's contract as a client of any language would declare it: id, schemas, nothing of its code. */
interface GreetingService {
  readonly state: RemoteState<{ greeted: string[] }>;
  readonly events: RemoteEvents<{ type: 'greeted'; name: string }>;
  greet(name: string, context: typeof BACKGROUND_CONTEXT): Promise<string>;
}
const Greeting = defineRemoteService<GreetingService>('greeting', {
  methods: { greet: { args: [z.string()], result: z.string() } },
  state: { state: z.object({ greeted: z.array(z.string()) }) },
  events: { events: z.object({ type: z.literal('greeted'), name: z.string() }) },
});

const sandboxes: SessionSandbox[] = [];
const processes: SessionProcess[] = [];
const clients: PiClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(processes.splice(0).map((process) => process.stop('SIGKILL')));
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.remove()));
});

async function sandboxWithManifest(plugins: unknown[]): Promise<{ sandbox: SessionSandbox; manifest: string }> {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  const manifest = join(sandbox.root, 'manifest.json');
  await writeFile(manifest, JSON.stringify({ plugins }));
  return { sandbox, manifest };
}

/** The example third-party plugin, copied next to the manifest, resolving the plugin API from this workspace. */
async function placeHelloPlugin(sandbox: SessionSandbox, apiVersion = '2.0'): Promise<void> {
  const folder = join(sandbox.root, 'hello-plugin');
  await cp(join(WORKSPACE, 'examples', 'hello-plugin'), folder, { recursive: true });
  const packageFile = join(folder, 'package.json');
  const metadata = JSON.parse(await readFile(packageFile, 'utf8'));
  await writeFile(packageFile, JSON.stringify({ ...metadata, pi: { ...metadata.pi, apiVersion } }));
  await mkdir(join(folder, 'node_modules', '@pi'), { recursive: true });
  await symlink(join(WORKSPACE, 'libs', 'plugin-api'), join(folder, 'node_modules', '@pi', 'plugin-api'));
}

describe('plugins pi-session loads', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('never imports a built-in plugin the manifest leaves out', async () => {
    const { sandbox, manifest } = await sandboxWithManifest(['@pi/settings', '@pi/providers-builtin', '@pi/chat']);
    const log = join(sandbox.root, 'modules.log');
    const process = runPiSession(sandbox, [...sandbox.flags, '--manifest', manifest], moduleLogEnvironment(log));
    processes.push(process);
    await process.listening();

    const modules = await loadedModules(log);
    expect(modules.some((url) => url.includes('/plugins/chat/session/'))).toBe(true);
    // The providers plugin imports the accounts contract (its Credentials token), never its session facet.
    expect(modules.filter((url) => /\/plugins\/(question\/|accounts\/session\/)/.test(url))).toEqual([]);
  });

  it('loads a plugin written outside the workspace by its path, and serves it to a client', async () => {
    const { sandbox, manifest } = await sandboxWithManifest(['@pi/settings', './hello-plugin']);
    await placeHelloPlugin(sandbox);
    const process = runPiSession(sandbox, [...sandbox.flags, '--manifest', manifest]);
    processes.push(process);
    const { socketPath, token } = await readConnectionFile((await process.listening()).connectionFile);
    const client = (await connect({ socketPath, token, reconnect: false }))._unsafeUnwrap();
    clients.push(client);

    const greeting = await client.use(Greeting);
    const heard = new Promise((resolveEvent) => greeting.events.subscribe(resolveEvent));
    expect(await greeting.greet('Ada', BACKGROUND_CONTEXT)).toBe('Hello, Ada!');
    expect((await nextValue(greeting.state, (state) => state.greeted.length === 1)).greeted).toEqual(['Ada']);
    expect(await heard).toEqual({ type: 'greeted', name: 'Ada' });
  });

  it('refuses a plugin built for another plugin API: one line naming it, a non-zero exit, no socket left', async () => {
    const { sandbox, manifest } = await sandboxWithManifest(['@pi/settings', './hello-plugin']);
    await placeHelloPlugin(sandbox, '3.0');
    const socket = join(sandbox.runtimeDir, 'hello.sock');
    const process = runPiSession(sandbox, [...sandbox.flags, '--manifest', manifest, '--socket', socket]);
    processes.push(process);

    const exit = await process.exited;
    expect(exit.code).not.toBe(0);
    const lines = process
      .stderr()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines).toEqual([expect.stringContaining('Plugin "hello"')]);
    expect(lines[0]).toContain('built for plugin API 3.0');
    expect(lines[0]).toContain(manifest);
    await expect(stat(socket)).rejects.toThrow();
  });

  it("tells a plugin's failing setup in one line, and its stack and cause too with PI_DEBUG=1", async () => {
    const { sandbox, manifest } = await sandboxWithManifest(['@pi/settings', './failing-plugin']);
    const folder = join(sandbox.root, 'failing-plugin');
    await mkdir(folder);
    const pi = { id: 'failing', apiVersion: '2.0', facets: { session: './session.js' } };
    await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'pi-plugin-failing', type: 'module', pi }));
    await writeFile(
      join(folder, 'session.js'),
      "export default function failing() { throw new Error('setup broke', { cause: new Error('the disk is full') }); }\n",
    );
    const [plain, debug] = [{ PI_DEBUG: '' }, { PI_DEBUG: '1' }].map((env) => {
      const process = runPiSession(sandbox, [...sandbox.flags, '--manifest', manifest], env);
      processes.push(process);
      return process;
    });
    for (const process of [plain, debug]) expect((await process?.exited)?.code).toBe(1);

    const line = 'pi-session: plugin "failing" failed during setup: setup broke';
    expect(plain?.stderr()).toBe(`${line}\n`);
    const [first, ...detail] = (debug?.stderr() ?? '').trimEnd().split('\n');
    expect(first).toBe(line);
    expect(detail[0]).toBe('  Error: setup broke');
    expect(detail[1]).toMatch(/^ {6}at failing \(.*failing-plugin\/session\.js:1:/);
    expect(detail).toContain('  caused by: Error: the disk is full');
  });

  it('tells a plugin module that throws while imported in one line, and its stack and cause with PI_DEBUG=1', async () => {
    const { sandbox, manifest } = await sandboxWithManifest(['@pi/settings', './throwing-plugin']);
    const folder = join(sandbox.root, 'throwing-plugin');
    await mkdir(folder);
    const pi = { id: 'throwing', apiVersion: '2.0', facets: { session: './session.js' } };
    await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'pi-plugin-throwing', type: 'module', pi }));
    await writeFile(
      join(folder, 'session.js'),
      "throw new Error('import broke', { cause: new Error('no config') });\nexport default function throwing() {}\n",
    );
    const [plain, debug] = [{ PI_DEBUG: '' }, { PI_DEBUG: '1' }].map((env) => {
      const process = runPiSession(sandbox, [...sandbox.flags, '--manifest', manifest], env);
      processes.push(process);
      return process;
    });
    for (const process of [plain, debug]) expect((await process?.exited)?.code).toBe(1);

    const line = expect.stringMatching(
      /^pi-session: Plugin "throwing" in manifest .*: loading .* failed: import broke$/,
    );
    expect(plain?.stderr().split('\n')).toEqual([line, '']);
    const [first, ...detail] = (debug?.stderr() ?? '').trimEnd().split('\n');
    expect(first).toEqual(line);
    expect(detail[0]).toBe('  Error: import broke');
    expect(detail[1]).toMatch(/^ {6}at .*throwing-plugin\/session\.js:1:/);
    expect(detail).toContain('  caused by: Error: no config');
  });
});
