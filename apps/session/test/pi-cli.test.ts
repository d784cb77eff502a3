import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkJson } from '@pi/remote';
import { sessionTokens } from '@pi/session-api';
import { eventually } from '@pi/test-support';
import { runPi, startPi } from './pi-cli-process';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  runPiSession,
  type ListeningLine,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

let sandbox: SessionSandbox;
let session: SessionProcess;
let line: ListeningLine;
/** The default manifest's services, as SessionRouter types them (stock-trpc-client.test.ts keeps the two equal). */
const SERVICES = Object.keys(sessionTokens);
/** Every command finds the session the way a user's would: by the directory it runs in (and no coordinator). */
const pi = (...args: string[]) =>
  runPi([...args, '--data-dir', sandbox.dataDir], { cwd: sandbox.cwd, env: { XDG_RUNTIME_DIR: sandbox.runtimeDir } });

beforeAll(async () => {
  sandbox = await createSandbox();
  session = runPiSession(sandbox, sandbox.flags);
  line = await session.listening();
}, PROCESS_TEST_TIMEOUT_MS);

afterAll(async () => {
  await session?.stop('SIGKILL');
  await sandbox?.remove();
});

describe('the pi CLI against a running pi-session', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('pi services lists every built-in service with its methods, state and events', async () => {
    const run = await pi('services');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const services = run.stdout.split('\n').filter((text) => /^\S/.test(text));
    expect(services).toEqual(SERVICES);
    expect(run.stdout).toContain('  select({ provider, modelId }): void');
    expect(run.stdout).toContain('  prompt({ text, operationId? }): { accepted, operationId, error, duplicate? }');
    expect(run.stdout).toContain('  events events: ');
  });

  it('pi services --json prints the description: strict JSON, no local service', async () => {
    const run = await pi('services', '--json');
    expect(run.code).toBe(0);
    const description = JSON.parse(run.stdout);
    expect(checkJson(description).isOk()).toBe(true);
    expect(description.services.map((service: { id: string }) => service.id)).toEqual(SERVICES);
    // The built-in contracts also define local services (settings, credentials): never described.
    expect(run.stdout).not.toMatch(/"id":"(settings|credentials|run-settings)"/);
  });

  it('pi call prints the JSON result; a void method prints nothing; --json prints the answer', async () => {
    expect(await pi('call', 'models.refresh')).toEqual({ code: 0, stdout: '', stderr: '' });
    const select = await pi('call', 'models.select', '{"provider":"offline","modelId":"thinker"}', '--json');
    expect(select).toEqual({ code: 0, stdout: '{}\n', stderr: '' });
    const history = await pi('call', 'chat.history', '{"before":0,"limit":1}');
    expect(history.code).toBe(0);
    expect(JSON.parse(history.stdout)).toEqual({ branch: expect.any(String), firstIndex: 0, entries: [] });
  });

  it('pi call with a bad argument prints the stable code and exits 6', async () => {
    const wrongType = await pi('call', 'models.select', '"offline/echo"');
    expect(wrongType.code).toBe(6);
    expect(wrongType.stderr).toMatch(/^pi: invalid_argument: /);
    const notJson = await pi('call', 'models.select', 'offline');
    expect(notJson.code).toBe(6);
    expect(notJson.stderr).toContain('invalid_argument: argument 1 is not JSON');
    const json = await pi('call', 'models.select', '{}', '--json');
    expect(json.code).toBe(6);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'invalid_argument' } });
    const own = await pi('call', 'models.select', '{"provider":"offline","modelId":"nope"}');
    expect(own).toMatchObject({ code: 9, stderr: expect.stringMatching(/^pi: unknown_model: /) });
  });

  it('an unknown service or method exits 5 and lists what exists', async () => {
    const service = await pi('call', 'nope.refresh');
    expect(service.code).toBe(5);
    expect(service.stderr).toContain(
      `unknown_service: Unknown service "nope"; this host serves: ${SERVICES.join(', ')}`,
    );
    const method = await pi('call', 'models.nope');
    expect(method.code).toBe(5);
    expect(method.stderr).toContain('it has: cycleThinking, refresh, select');
    expect((await pi('watch', 'nope')).code).toBe(5);
  });

  it('pi watch prints the snapshot, then changes and events as JSON lines, until SIGTERM', async () => {
    const watch = startPi(['watch', 'chat', '--data-dir', sandbox.dataDir], { cwd: sandbox.cwd });
    await eventually(() => watch.stdout().includes('"kind":"snapshot"'), 10_000);
    expect((await pi('call', 'chat.prompt', '{"text":"hello from pi"}')).code).toBe(0);
    await eventually(() => watch.stdout().includes('"type":"settled"'), 10_000);
    watch.signal('SIGTERM');
    const run = await watch.done;
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const frames = run.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    expect(frames[0]).toMatchObject({ kind: 'snapshot', seq: 0, state: { transcript: expect.any(Object) } });
    expect(frames.map((frame) => frame.seq)).toEqual(frames.map((_frame, index) => index));
    expect(frames.some((frame) => frame.kind === 'state')).toBe(true);
    expect(frames.some((frame) => frame.kind === 'event' && frame.event.type === 'delta')).toBe(true);
    expect(frames.every((frame) => !('trace' in frame))).toBe(true);
  });

  it('pi status names the session found, its directory, process and connection', async () => {
    const run = await pi('status', '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      session: {
        sessionId: line.sessionId,
        cwd: sandbox.cwd,
        pid: session.child.pid,
        socketPath: line.socketPath,
        url: null,
        connectionFile: line.connectionFile,
      },
      connection: 'connected',
      heartbeat: { idleMs: 5000, timeoutMs: 3000 },
      services: SERVICES,
      coordinator: { running: false },
    });
    const human = await pi('status', '--session', line.sessionId, '--cwd', '/');
    expect(human.stdout).toMatch(new RegExp(`^session +${line.sessionId}$`, 'm'));
    expect(human.stdout).toMatch(/^connection +connected/m);
  });

  it('with no session there, pi exits 3 with one line; a bad flag exits 2; --help works on every command', async () => {
    const none = await runPi(['status', '--data-dir', sandbox.dataDir], {
      cwd: sandbox.root,
      env: { XDG_RUNTIME_DIR: sandbox.runtimeDir },
    });
    expect(none).toEqual({
      code: 3,
      stdout: 'coordinator  not running (pi-coordinator start)\n',
      stderr: `pi: unavailable: No session is running in ${sandbox.root}\n`,
    });
    expect((await pi('status', '--nope')).code).toBe(2);
    const helps = await Promise.all(
      ['', 'services', 'call', 'watch', 'status'].map((command) =>
        runPi([...(command === '' ? [] : [command]), '--help']),
      ),
    );
    for (const help of helps) expect(help).toMatchObject({ code: 0, stdout: expect.stringContaining('Usage: pi') });
    expect(helps[2]?.stdout).toContain('pi call <service>.<method>');
  });
});
