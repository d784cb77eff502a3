import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_API_VERSION } from '@pi/plugin-api';
import type { PackedManifest } from '../src/index';
import { WORKSPACE_ROOT } from '../src/workspace-root';
import { createFreshHome } from './fresh-home';
import { hintedCommand, openInstalledShell } from './installed-shell';
import { MODEL_ANSWER } from './model-server';
import { packWorkspace, type PackedWorkspace } from './packed-workspace';
import { runnableBlocks } from './readme-blocks';
import { runCommand } from './run-command';
import { runTallyInTui } from './tally-tui';

const LIBRARIES = ['@pi/client', '@pi/plugin-api', '@pi/session-api'];
const PYTHON_CLIENT = join(WORKSPACE_ROOT, 'examples', 'python-rpc', 'client.py');
const BLOCKS = await runnableBlocks(WORKSPACE_ROOT);

// One packing and one session serve every test: packing and installing are the slow part.
let packed: PackedWorkspace;
beforeAll(async () => {
  packed = await packWorkspace();
});
afterAll(async () => {
  await packed?.[Symbol.asyncDispose]();
});

/**
 * Runs the installed `pi` in the session's project, as a user's shell there would (stdin closed: nothing piped in),
 * and resolves with its exit code and output.
 */
function pi(
  args: readonly string[],
  cwd = packed.host.cwd,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCommand(packed.pi, args, cwd, { ...env, ...packed.host.env });
}

describe('@pi/client, @pi/plugin-api and @pi/session-api packed and installed outside the workspace', () => {
  async function installedManifest(name: string): Promise<PackedManifest> {
    const dir = join(packed.consumer.dir, 'node_modules', name);
    return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackedManifest;
  }

  it.each(LIBRARIES)(
    '%s ships JavaScript and declarations with no @pi import, and ranges of what it needs',
    async (name) => {
      const dir = join(packed.consumer.dir, 'node_modules', name);
      const manifest = await installedManifest(name);
      expect(manifest.exports['.']).toEqual({ types: './index.d.ts', import: './index.js', default: './index.js' });
      for (const [dependency, range] of Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })) {
        expect(dependency).not.toMatch(/^@pi\//);
        expect(range).toMatch(/^\^\d+\.\d+\.\d+$/);
      }
      expect(Object.keys(manifest.dependencies)).not.toContain('zod');
      expect(manifest.checkedWith.typescript).toEqual([expect.stringMatching(/^5\./), expect.stringMatching(/^7\./)]);
      for (const file of ['index.js', 'index.d.ts']) {
        expect(await readFile(join(dir, file), 'utf8')).not.toMatch(/(from|import\()\s*["']@pi\//);
      }
    },
  );

  it('compiles a plugin and a tool written against the packed types (strict, declarations checked)', () => {
    expect(packed.compileError).toBeUndefined();
  });

  it('compiles the plugin `nx g @pi/workspace:plugin --standalone` makes, which the session then serves', async () => {
    expect(packed.compileError).toBeUndefined();
    expect(await pi(['call', 'standalone-greeting.greet', '"Ada"'])).toMatchObject({
      code: 0,
      stdout: '"Hello, Ada!"\n',
    });
  });

  it('loads with require() as well as import (Node >= 20.19 requires an ES module)', async () => {
    await packed.consumer.writeFile(
      'required.cjs',
      "const { connect, sessionTokens, RemoteError } = require('@pi/client');\n" +
        'console.log([typeof connect, typeof RemoteError, "chat" in sessionTokens].join(" "));\n',
    );
    expect((await packed.consumer.node('required.cjs')).trim()).toBe('function function true');
  });

  it('runs under plain node: a tool connects to a real pi-session that loaded the plugin, and calls it', async () => {
    const env = { PI_SOCKET: packed.host.socketPath, PI_TOKEN: packed.host.token };
    const output: unknown = JSON.parse(await packed.consumer.node('dist/use-host.js', env));
    expect(output).toEqual({
      refused: 'not_authorized',
      status: 'connected',
      models: expect.arrayContaining(['echo', 'small']) as unknown,
      greeting: 'hello outside from greeter',
      greeted: 1,
    });

    // A script that only knows the project's directory finds the session through its connection file.
    const { cwd, dataDir } = packed.host;
    const found = await packed.consumer.node('dist/find-session.js', { PI_PROJECT: cwd, PI_DATA: dataDir });
    expect(JSON.parse(found)).toEqual(expect.arrayContaining(['echo']));
    const nowhere = join(packed.host.cwd, 'no-session-here');
    await expect(
      packed.consumer.node('dist/find-session.js', { PI_PROJECT: nowhere, PI_DATA: dataDir }),
    ).rejects.toThrow(`find-session: No session is running in ${nowhere}`);
  });
});

describe('README code blocks marked runnable', () => {
  it('the client README opens with one: it lists the services and prints the streamed answer', async () => {
    const [first] = BLOCKS.filter((block) => block.name.startsWith('libs/client/README.md'));
    expect(first?.code).toContain("from '@pi/client'");
    await packed.consumer.writeFile('hello.mjs', first?.code ?? '');
    const output = await packed.consumer.node('hello.mjs', packed.host.env, packed.host.cwd);
    expect(output).toMatch(/^services: .*\bchat\b.*\bmodels\b/m);
    expect(output).toContain(MODEL_ANSWER);
  });

  it.each(BLOCKS.map((block) => [block.name, block.code] as const))(
    '%s runs with the packed packages',
    async (name, code) => {
      const file = `readme-${name.replace(/\W+/g, '-')}.mjs`;
      await packed.consumer.writeFile(file, code);
      await expect(packed.consumer.node(file, packed.host.env, packed.host.cwd)).resolves.toEqual(expect.any(String));
    },
  );
});

describe('the examples, installed from the packed tarballs by their own package.json', () => {
  it('hello-plugin (JavaScript) is served by the session: pi calls greeting.greet', async () => {
    expect(await pi(['call', 'greeting.greet', '"Ada"'])).toMatchObject({ code: 0, stdout: '"Hello, Ada!"\n' });
  });

  it('tally-plugin (TypeScript) serves tally in the session, and its TUI facet runs /tally against it', async () => {
    const before = Number((await pi(['call', 'tally.add', '1'])).stdout);
    expect(before).toBeGreaterThanOrEqual(1);
    const shown = await runTallyInTui(packed.examples['tally-plugin'], packed.host, '/tally 3');
    expect(shown).toBe(before + 3);
  });
});

describe('the pi CLI installed with npm install -g from its tarball', () => {
  it('is bundles, pi and the pi-session, pi-tui and pi-coordinator it carries, needing only blessed and SQLite', async () => {
    const manifest = packed.built.get('@pi/cli')?.manifest;
    expect(manifest).toMatchObject({
      name: '@pi/cli',
      bin: {
        pi: './bin/pi.mjs',
        'pi-session': './session/pi-session.mjs',
        'pi-tui': './tui/pi-tui.mjs',
        'pi-coordinator': './coordinator/pi-coordinator.mjs',
      },
    });
    expect(manifest).toHaveProperty('dependencies', {
      '@photostructure/sqlite': expect.stringMatching(/^\d+\.\d+\.\d+$/) as unknown,
      blessed: expect.stringMatching(/^\d+\.\d+\.\d+$/) as unknown,
    });
    // The installed pi-tui runs with the node options of the checkout's (its young generation: docs/decisions.md).
    const tui = await readFile(join(packed.built.get('@pi/cli')?.dir ?? '', 'tui', 'pi-tui.mjs'), 'utf8');
    expect(tui.split('\n', 1)[0]).toBe('#!/usr/bin/env -S node --max-semi-space-size=1');
  });

  it('services, call and status reach the session of the directory it runs in', async () => {
    const services = await pi(['services']);
    expect(services).toMatchObject({ code: 0, stderr: '' });
    expect(services.stdout).toMatch(/^chat\b/m);
    expect(JSON.parse((await pi(['call', 'chat.info', '--json'])).stdout)).toHaveProperty('value');
    expect((await pi(['status'])).stdout).toContain(packed.host.cwd);
  });

  it('watch prints the snapshot as a JSON line and ends with 0 on SIGTERM', async () => {
    const child = spawn(packed.pi, ['watch', 'tally'], {
      cwd: packed.host.cwd,
      env: { ...process.env, ...packed.host.env },
    });
    const firstLine = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('\n')) resolve(output.split('\n')[0] ?? '');
      });
      child.once('exit', (code) => reject(new Error(`pi watch exited with ${code} before a line`)));
    });
    expect(JSON.parse(firstLine)).toMatchObject({ kind: 'snapshot' });
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it("print mode answers one prompt with the session's model", async () => {
    expect(await pi(['-p', 'say hello'])).toEqual({ code: 0, stdout: `${MODEL_ANSWER}\n`, stderr: '' });
  });

  it('print mode where no session runs starts the pi-session it carries, answers, and stops it', async () => {
    await using home = await createFreshHome(packed.model.baseUrl);
    const env = { ...process.env, ...home.env };
    expect(await runCommand(packed.pi, ['-p', 'hello'], home.project, env)).toEqual({
      code: 0,
      stdout: `${MODEL_ANSWER}\n`,
      stderr: '',
    });
    const status = await runCommand(packed.pi, ['status'], home.project, env);
    expect(status.code).toBe(3);
    expect(status.stderr).toContain(`No session is running in ${home.project}`);
  });

  it('a stock @trpc/client tool typed by SessionRouter handles NOT_FOUND and BAD_REQUEST as TRPCClientErrors', async () => {
    expect(packed.compileError).toBeUndefined();
    const env = { PI_SOCKET: packed.host.socketPath, PI_TOKEN: packed.host.token };
    expect(JSON.parse(await packed.consumer.node('dist/stock-trpc.js', env))).toEqual({
      services: expect.arrayContaining(['chat', 'models', 'greeting', 'tally']) as unknown,
      info: 'object',
      notFound: { code: 'NOT_FOUND', httpStatus: 404, remote: 'unknown_operation' },
      badRequest: { code: 'BAD_REQUEST', httpStatus: 400, remote: 'invalid_argument' },
    });
  });

  it('the Python example drives pi --mode rpc, which starts the pi-session it carries', async (context) => {
    const python = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
    if (python.error !== undefined || python.status !== 0) {
      console.warn('skipped: python3 is not on PATH, so examples/python-rpc/client.py cannot be run');
      context.skip('python3 is not on PATH');
    }
    // The example as a user downloads it: one file, beside nothing of this repository.
    await packed.consumer.writeFile('client.py', await readFile(PYTHON_CLIENT, 'utf8'));
    await using home = await createFreshHome(packed.model.baseUrl);
    const env = { ...process.env, ...home.env, PI_COMMAND: packed.pi };
    const client = join(packed.consumer.dir, 'client.py');
    const result = await runCommand(python.stdout.trim(), [client, 'hello?'], home.project, env);
    expect(result).toMatchObject({ code: 0, stdout: `${MODEL_ANSWER}\n` });
    expect(result.stderr).toContain(`in ${home.project}`);
    expect(result.stderr).toMatch(/^services: .*\bchat\b/m);
    expect(result.stderr).toContain('as expected, no such model: unknown_model');
    expect((await runCommand(packed.pi, ['status'], home.project, env)).code).toBe(3);
  });

  it('its pi-session, which has no tsx, leaves out a TypeScript plugin of the user with a line saying why', async () => {
    await using home = await createFreshHome(packed.model.baseUrl);
    const plugin = join(home.project, 'ts-plugin');
    await mkdir(plugin);
    const pi = { id: 'ts-plugin', apiVersion: PLUGIN_API_VERSION, facets: { session: './session.ts' } };
    await writeFile(join(plugin, 'package.json'), JSON.stringify({ name: 'ts-plugin', type: 'module', pi }));
    await writeFile(join(plugin, 'session.ts'), 'export default function setup(): void {}\n');
    const plugins = join(home.env['XDG_CONFIG_HOME'] ?? '', 'pi', 'plugins.json');
    await writeFile(plugins, JSON.stringify({ plugins: [plugin] }));
    const child = spawn(packed.piSession, ['--cwd', home.project], { env: { ...process.env, ...home.env } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('listening on')) resolve();
      });
      void exited.then(() => reject(new Error(`pi-session exited before listening: ${stderr}`)));
    });
    child.kill('SIGTERM');
    await exited;
    expect(stderr).toContain(`Plugin "ts-plugin" in manifest ${plugins}`);
    expect(stderr).toContain('this pi runs without tsx, so it imports JavaScript only');
    expect(stderr).toContain('(the global plugins were not loaded)');
  });
});

describe('the commands the installed programs name in their hints, run from the install in an empty folder', () => {
  it('pi sessions with no coordinator names `pi-coordinator start`, which starts it; sessions then run, and stop ends them', async () => {
    await using shell = await openInstalledShell(packed.bin, packed.model.baseUrl);
    const none = await shell.run(['pi', 'sessions']);
    expect(none.code).toBe(3);
    const start = hintedCommand(none.stderr, 'start it with');
    expect(start).toEqual(['pi-coordinator', 'start']);
    const started = await shell.run(start);
    expect(started).toMatchObject({ code: 0, stdout: expect.stringMatching(/^pi-coordinator: running \(pid \d+\)/) });
    expect(await shell.run(['pi', 'sessions'])).toMatchObject({
      code: 0,
      stdout: `No sessions in ${shell.project} (pi sessions create starts one)\n`,
    });
    // The coordinator starts the pi-session carried beside it.
    const created = await shell.run(['pi', 'sessions', 'create']);
    expect(created.code).toBe(0);
    expect((await shell.run(['pi', 'status'])).stdout).toContain(created.stdout.trim());
    expect(await shell.run(['pi-coordinator', 'stop'])).toMatchObject({ code: 0, stdout: 'pi-coordinator: stopped\n' });
    expect((await shell.run(['pi', 'status'])).code).toBe(3);
  });

  it('pi-tui --help prints its usage; pi-tui with no session names `pi-tui --start`, which starts the coordinator and a session, which answers a prompt', async () => {
    await using shell = await openInstalledShell(packed.bin, packed.model.baseUrl);
    const help = await shell.run(['pi-tui', '--help']);
    expect(help).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Usage: pi-tui /) });
    const none = await shell.run(['pi-tui']);
    expect(none.code).toBe(1);
    const start = hintedCommand(none.stderr, 'start one with');
    expect(start).toEqual(['pi-tui', '--start']);
    const tui = shell.runInTerminal(start);
    await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI connected');
    tui.write('hello');
    tui.press('enter');
    await tui.waitForScreen((screen) => screen.text.includes(MODEL_ANSWER), "the local model's answer");
    tui.press('ctrl+d');
    expect(await tui.exited).toEqual({ exitCode: 0, signal: 0 });
    expect((await shell.run(['pi-coordinator', 'status'])).code).toBe(0);
  });

  it("pi-session's startup line names `pi-tui --session ID` and `pi-tui` in the folder, which attach, and pi status", async () => {
    await using shell = await openInstalledShell(packed.bin, packed.model.baseUrl);
    const session = shell.start(['pi-session']);
    const printed = await session.printed(': attach with ');
    const attach = hintedCommand(printed, 'attach with');
    expect(attach).toEqual(['pi-tui', '--session', expect.stringMatching(/^s-/) as unknown]);
    const sessionId = attach[2] ?? '';
    expect(hintedCommand(printed, '(or')).toEqual(['pi-tui']);
    const status = await shell.run(hintedCommand(printed, ';'));
    expect(status).toMatchObject({ code: 0, stdout: expect.stringContaining(sessionId) as unknown });
    for (const command of [attach, ['pi-tui']]) {
      const tui = shell.runInTerminal(command);
      const screen = await tui.waitForScreen(
        (shown) => shown.text.includes('● connected'),
        `${command.join(' ')} connected`,
      );
      expect(screen.text).toContain(sessionId);
      tui.press('ctrl+d');
      expect(await tui.exited).toEqual({ exitCode: 0, signal: 0 });
    }
    await session.stop();
  });
});
