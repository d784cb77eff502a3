import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning } from '@pi/connection-files';
import { eventually } from '@pi/test-support';
import { runPi, startPi } from './pi-cli-process';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  readConnectionFile,
  readSessionEntries,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

const sandboxes: SessionSandbox[] = [];
const sessions: SessionProcess[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((session) => session.stop('SIGKILL')));
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.remove()));
});

async function sandboxed(): Promise<SessionSandbox> {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  return sandbox;
}

/** `pi -p …` in the sandbox's project, finding sessions in its data directory. */
const print = (sandbox: SessionSandbox, ...args: string[]) =>
  runPi(['-p', ...args, '--data-dir', sandbox.dataDir], {
    cwd: sandbox.cwd,
    env: { XDG_RUNTIME_DIR: sandbox.runtimeDir, XDG_CONFIG_HOME: sandbox.configDir },
  });

/** The sessions whose files are in the data directory. */
async function sessionFiles(sandbox: SessionSandbox): Promise<string[]> {
  const names = await readdir(join(sandbox.dataDir, 'sessions')).catch(() => []);
  return names.filter((name) => name.endsWith('.jsonl'));
}

describe('pi -p, print mode', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('with no session running starts one, prints the final answer, exits 0, and stops what it started', async () => {
    const sandbox = await sandboxed();
    const run = await print(sandbox, 'hello there');
    expect(run).toMatchObject({ code: 0, stdout: 'You said: hello there\n', stderr: '' });
    const [file] = await sessionFiles(sandbox);
    expect(file).toBeDefined();
    // The session is durable (the TUI can resume it) and no longer running.
    const entries = await readSessionEntries(sandbox.dataDir, (file ?? '').replace(/\.jsonl$/, ''));
    expect(JSON.stringify(entries)).toContain('hello there');
    const connectionFiles = (await readdir(join(sandbox.dataDir, 'sessions'))).filter((name) => name.endsWith('.json'));
    expect(connectionFiles).toEqual([]);
  });

  it('sends a prompt template expanded with its arguments, and a slash line that names none as typed', async () => {
    const sandbox = await sandboxed();
    await mkdir(join(sandbox.configDir, 'pi', 'prompts'), { recursive: true });
    await writeFile(
      join(sandbox.configDir, 'pi', 'prompts', 'greet.md'),
      '---\ndescription: Greets\n---\nGreet $1 warmly.',
    );
    expect(await print(sandbox, '/greet Ada')).toMatchObject({ code: 0, stdout: 'You said: Greet Ada warmly.\n' });
    expect((await print(sandbox, '/nothing here')).stdout).toBe('You said: /nothing here\n');
  });

  it('uses the session running in the directory', async () => {
    const sandbox = await sandboxed();
    const session = runPiSession(sandbox, sandbox.flags);
    sessions.push(session);
    const { sessionId } = await session.listening();
    expect((await print(sandbox, 'in the running one')).stdout).toBe('You said: in the running one\n');
    expect(JSON.stringify(await readSessionEntries(sandbox.dataDir, sessionId))).toContain('in the running one');
  });

  it('--no-session leaves no session behind; --mode json prints each event of the run, ending with settled', async () => {
    const sandbox = await sandboxed();
    const run = await print(sandbox, 'quietly', '--no-session', '--mode', 'json');
    expect(run.code).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(events.at(-1)).toMatchObject({ type: 'settled', outcome: 'completed' });
    expect(events.some((event) => event.type === 'final')).toBe(true);
    expect(await sessionFiles(sandbox)).toEqual([]);
  });

  it('denies a tool that asks for confirmation, and runs it with --allow-tools', async () => {
    const sandbox = await sandboxed();
    const denied = await print(sandbox, 'run `echo from-bash`', '--no-session');
    expect(denied.code).toBe(0);
    expect(denied.stdout).not.toContain('from-bash\n');
    expect(denied.stdout).toMatch(/denied|not allowed|no one/i);
    const allowed = await print(sandbox, 'run `echo from-bash`', '--no-session', '--allow-tools');
    expect(allowed).toMatchObject({ code: 0 });
    expect(allowed.stdout).toContain('from-bash');
  });

  it('a pi killed mid-prompt takes the session it started with it (the session stops when its stdin closes)', async () => {
    const sandbox = await sandboxed();
    const pi = startPi(['-p', 'run `sleep 60`', '--allow-tools', '--data-dir', sandbox.dataDir], {
      cwd: sandbox.cwd,
      env: { XDG_RUNTIME_DIR: sandbox.runtimeDir, XDG_CONFIG_HOME: sandbox.configDir },
    });
    const sessionsDir = join(sandbox.dataDir, 'sessions');
    const connectionFile = () =>
      (existsSync(sessionsDir) ? readdirSync(sessionsDir) : []).find((name) => name.endsWith('.connection.json'));
    await eventually(() => connectionFile() !== undefined, 24_000);
    const { pid } = await readConnectionFile(join(sessionsDir, connectionFile() ?? ''));
    pi.signal('SIGKILL');
    await pi.done;
    await eventually(() => !isRunning(pid), 24_000);
    expect(connectionFile()).toBeUndefined();
  });

  it('selects --model with its thinking level, and a bad one is one line and exit 2', async () => {
    const sandbox = await sandboxed();
    const thinker = await print(sandbox, 'think', '--no-session', '--model', 'offline/thinker:low');
    expect(thinker.stdout).toBe('(thinking: low) You said: think\n');
    const unknown = await print(sandbox, 'x', '--no-session', '--model', 'offline/none');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr.trim().split('\n')).toHaveLength(1);
    expect((await print(sandbox, 'x', '--mode', 'xml')).stderr).toBe('pi: --mode is text or json, got "xml"\n');
  });
});
