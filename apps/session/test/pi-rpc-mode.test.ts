import { spawn, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  anthropicAnswerEvents,
  beginEventStream,
  startFakeChatServer,
  type FakeChatServer,
} from '@pi/model-providers/testing';
import { PI_BIN } from './pi-cli-process';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

const WORKSPACE = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PYTHON_CLIENT = join(WORKSPACE, 'examples', 'python-rpc', 'client.py');
const ANSWER = 'The notes say: ship on Friday.';

/** One record `pi --mode rpc` wrote. */
type Line = Record<string, unknown> & { type: string };

let server: FakeChatServer;
let sandbox: SessionSandbox;
let session: SessionProcess;

/**
 * One session for every test, its model a local server speaking the Anthropic Messages API (each request answered
 * with ANSWER, streamed): `pi --mode rpc` finds it running in the directory, as a tool on this machine would.
 */
beforeAll(async () => {
  server = await startFakeChatServer((_, response) => {
    beginEventStream(response);
    response.end(anthropicAnswerEvents({ text: ANSWER }).join(''));
  });
  sandbox = await createSandbox();
  await mkdir(sandbox.configDir, { recursive: true });
  const baseUrl = server.baseUrl.replace(/\/v1$/, '');
  await writeFile(join(sandbox.configDir, 'models.json'), JSON.stringify({ providers: { anthropic: { baseUrl } } }));
  const defaultModel = { provider: 'anthropic', modelId: 'claude-sonnet-4-5' };
  await writeFile(join(sandbox.configDir, 'settings.json'), JSON.stringify({ defaultModel }));
  session = runPiSession(sandbox, sandbox.flags, { ANTHROPIC_API_KEY: 'key-for-the-local-server' });
  await session.listening();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await session?.stop('SIGKILL');
  await sandbox?.remove();
  await server?.close();
});

/** `pi --mode rpc` on the sandbox's directory: lines in through `send`, every line out parsed, until it exits. */
function startRpcMode() {
  const child = spawn(process.execPath, [PI_BIN, '--mode', 'rpc', '--data-dir', sandbox.dataDir], {
    cwd: sandbox.cwd,
    env: { ...process.env, XDG_RUNTIME_DIR: sandbox.runtimeDir, XDG_CONFIG_HOME: sandbox.configDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: Line[] = [];
  const waiters = new Set<() => void>();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (let newline = stdout.indexOf('\n'); newline !== -1; newline = stdout.indexOf('\n')) {
      lines.push(JSON.parse(stdout.slice(0, newline)) as Line);
      stdout = stdout.slice(newline + 1);
    }
    for (const waiter of waiters) waiter();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((settle) => child.once('close', (code) => settle(code)));
  return {
    lines,
    stderr: () => stderr,
    exited,
    send: (text: string) => child.stdin.write(`${text}\n`),
    end: () => child.stdin.end(),
    /** The first line (already out or to come) that matches. */
    line: (matches: (line: Line) => boolean) =>
      new Promise<Line>((found) => {
        const check = () => {
          const line = lines.find(matches);
          if (line === undefined) return;
          waiters.delete(check);
          found(line);
        };
        waiters.add(check);
        check();
      }),
  };
}

const responseTo = (id: unknown) => (line: Line) => line.type === 'response' && line['id'] === id;

describe('pi --mode rpc: JSON lines over stdin and stdout', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('answers a bad line with an error line and reads on, calls any method, and streams a prompt to its end', async () => {
    const rpc = startRpcMode();
    expect(await rpc.line((line) => line.type === 'ready')).toMatchObject({ cwd: sandbox.cwd });
    rpc.send('{"type": "prompt", "message": "unterminated');
    rpc.send(JSON.stringify({ id: 2, type: 'launch' }));
    rpc.send(JSON.stringify({ id: 3, type: 'prompt', message: 'hi', extra: true }));
    rpc.send(JSON.stringify({ id: 4, type: 'call', service: 'models', method: 'select', args: ['not a model'] }));
    rpc.send(JSON.stringify({ id: 5, type: 'call', service: 'ghost', method: 'haunt' }));
    // U+2028 is a legal character in a JSON string: only LF ends a line.
    rpc.send(JSON.stringify({ id: 'p', type: 'prompt', message: 'what do the notes say?\u2028thanks' }));

    const prompted = await rpc.line(responseTo('p'));
    expect(prompted).toMatchObject({ command: 'prompt', success: true, data: { accepted: true } });
    const operationId = (prompted['data'] as { operationId: string }).operationId;
    rpc.end();
    expect(await rpc.exited, rpc.stderr()).toBe(0);

    const [invalidJson, unknownType, extraField, badArgument, unknownService] = rpc.lines.filter(
      (line) => line.type === 'response' && line['id'] !== 'p',
    );
    expect(invalidJson).toMatchObject({ id: null, success: false, error: { code: 'invalid_json' } });
    expect(unknownType).toMatchObject({ id: 2, command: 'launch', success: false, error: { code: 'invalid_command' } });
    expect(extraField).toMatchObject({ id: 3, success: false, error: { code: 'invalid_command' } });
    expect(badArgument).toMatchObject({ id: 4, command: 'call', success: false, error: { code: 'invalid_argument' } });
    expect(unknownService).toMatchObject({ id: 5, success: false, error: { code: 'unknown_service' } });

    // The run's events, with the prompt's operation id to correlate; the input's end waited for it to settle.
    const events = rpc.lines
      .filter((line) => line.type === 'event' && line['service'] === 'chat')
      .map((line) => line['event'] as { type: string; operationId?: string; text?: string; outcome?: string });
    const ofRun = events.filter((event) => event.operationId === operationId);
    const streamed = ofRun.filter((event) => event.type === 'delta').map((event) => event.text);
    expect(streamed.join('')).toBe(ANSWER);
    expect(ofRun.at(-1)).toMatchObject({ type: 'settled', outcome: 'completed' });
    const sent = JSON.stringify(server.requests.at(-1)?.body);
    expect(sent).toContain('what do the notes say?\u2028thanks');
  });

  it('runs the Python example client (stdlib only) against it', async (context) => {
    const python = spawnSync('python3', ['--version'], { encoding: 'utf8' });
    if (python.error !== undefined || python.status !== 0) {
      console.warn('skipped: python3 is not on PATH, so the Python example client cannot be run');
      context.skip('python3 is not on PATH');
    }
    const child = spawn('python3', [PYTHON_CLIENT, '--cwd', sandbox.cwd, '--data-dir', sandbox.dataDir, 'hello?'], {
      env: {
        ...process.env,
        PI_COMMAND: `${process.execPath} ${PI_BIN}`,
        XDG_RUNTIME_DIR: sandbox.runtimeDir,
        XDG_CONFIG_HOME: sandbox.configDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((settle) => child.once('close', settle));
    expect({ code, stdout }, stderr).toEqual({ code: 0, stdout: `${ANSWER}\n` });
    expect(stderr).toMatch(/^services: .*\bchat\b.*\bmodels\b/m);
    expect(stderr).toContain('as expected, no such model: unknown_model');
  });
});
