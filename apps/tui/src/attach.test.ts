import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { connectionFilePath, writeConnectionFile } from '@pi/connection-files';
import { FIXTURE_TOKEN, startRpcFixture } from '@pi/test-support';
import { attach, sessionSwitcher } from './attach';
import { parseCliOptions, type CliOptions } from './cli-options';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

const optionsOf = (...argv: string[]): CliOptions => parseCliOptions(argv, '/work/project')._unsafeUnwrap();

describe('switching sessions from the TUI', () => {
  it('is refused for a TUI attached by socket or by a session’s own URL', () => {
    expect(sessionSwitcher(optionsOf('--socket', '/tmp/s.sock'), '/nowhere', {}, () => [])).toBeUndefined();
    expect(sessionSwitcher(optionsOf('--url', 'ws://127.0.0.1:1'), '/nowhere', {}, () => [])).toBeUndefined();
  });

  it('goes through the same coordinator, with the same token, for a TUI attached through its gateway', async () => {
    const options = optionsOf('--url', 'ws://127.0.0.1:1/sessions/s-a');
    // Nothing listens there: the attempt ends at the (short) deadline, naming the other session's URL.
    const switcher = sessionSwitcher(options, '/nowhere', { PI_TOKEN: 'user-token' }, () => [], 50);
    const outcome = await switcher?.('s-b');
    expect(outcome?.isErr() && outcome.error).toMatch(/^Cannot attach to ws:\/\/127\.0\.0\.1:1\/sessions\/s-b: /);
  });

  it('looks the session up by id in the data directory, whichever way the TUI was attached', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pi-tui-switch-'));
    folders.push(dataDir);
    for (const argv of [[], ['--start'], ['--session', 's-a'], ['--connection', join(dataDir, 'elsewhere.json')]]) {
      const switcher = sessionSwitcher(optionsOf(...argv), dataDir, {}, () => []);
      expect(switcher, argv.join(' ')).toBeDefined();
      const outcome = await switcher?.('s-b');
      expect(outcome?.isErr() && outcome.error).toBe(
        `No running session "s-b" (looked in ${join(dataDir, 'sessions')})`,
      );
    }
  });
});

describe('attaching with a token the host refuses', () => {
  async function refusingHost(path: string) {
    const fixture = await startRpcFixture('websocket');
    onTestFinished(() => fixture.close());
    const url = `ws+unix://${fixture.socketPath ?? ''}:${path}`;
    return { address: { url }, token: 'not-the-token', file: undefined, label: url, sessionId: undefined };
  }

  it('names $PI_TOKEN as the token to check when the session itself refused it', async () => {
    const target = await refusingHost('/');
    expect((await attach(target, 10_000))._unsafeUnwrapErr()).toBe(
      `Cannot attach to ${target.label}: the session refused the token in $PI_TOKEN (its connection file holds the one it takes)`,
    );
  });

  it('passes a coordinator gateway’s refusal on in its own words: the session never saw that token', async () => {
    const target = await refusingHost('/sessions/s-a');
    const refused = (await attach(target, 10_000))._unsafeUnwrapErr();
    expect(refused).toMatch(/^Cannot attach to ws\+unix:.*\/sessions\/s-a: /);
    expect(refused).not.toContain('the session refused the token');
  });
});

describe('attaching to a session that runs another build of one of the TUI’s plugins', () => {
  async function sessionRunning(apiVersion: string) {
    const fixture = await startRpcFixture('websocket', {
      hello: { pluginApi: apiVersion, plugins: [{ id: '@x/todo', apiVersion }, { id: '@x/git' }] },
    });
    onTestFinished(() => fixture.close());
    const socketPath = fixture.socketPath ?? '';
    return {
      address: { socketPath },
      token: FIXTURE_TOKEN,
      file: undefined,
      label: 'the test session',
      sessionId: undefined,
    };
  }

  it('is refused with one line naming the plugin when its two halves were built for different API majors', async () => {
    const target = await sessionRunning('2.0');
    const attached = await attach(target, 10_000, [{ id: '@x/todo', apiVersion: '3.0' }]);
    expect(attached._unsafeUnwrapErr()).toBe(
      'Cannot attach to the test session: plugin @x/todo is built for plugin API 2.0 in the host and 3.0 here; install one version of it for both',
    );
  });

  it('attaches when they share the API major', async () => {
    const target = await sessionRunning('2.0');
    const attached = await attach(target, 10_000, [{ id: '@x/todo', apiVersion: '2.7' }]);
    expect(attached.isOk()).toBe(true);
    attached.map(({ client }) => client.close());
  });

  /** A TUI that can switch, and the session "s-b" of its data directory (its connection file) running `target`. */
  async function switchableTo(target: Awaited<ReturnType<typeof sessionRunning>>) {
    const dataDir = await mkdtemp(join(tmpdir(), 'pi-tui-switch-'));
    folders.push(dataDir);
    await mkdir(join(dataDir, 'sessions'), { recursive: true });
    const { socketPath } = target.address;
    const info = { sessionId: 's-b', cwd: '/work/other', socketPath, url: null, token: target.token, pid: process.pid };
    await writeConnectionFile(connectionFilePath(dataDir, 's-b'), info);
    return (own: Parameters<typeof attach>[2]) => sessionSwitcher(optionsOf(), dataDir, {}, () => own)?.('s-b');
  }

  it('is refused the same way when the session picker switches to it', async () => {
    const switchTo = await switchableTo(await sessionRunning('2.0'));
    const switched = await switchTo([{ id: '@x/todo', apiVersion: '3.0' }]);
    expect(switched?.isErr() && switched.error).toBe(
      'Cannot attach to /work/other · s-b: plugin @x/todo is built for plugin API 2.0 in the host and 3.0 here; install one version of it for both',
    );
  });

  it('is switched to when they share the API major', async () => {
    const switchTo = await switchableTo(await sessionRunning('2.0'));
    const switched = await switchTo([{ id: '@x/todo', apiVersion: '2.7' }]);
    expect(switched?.isOk()).toBe(true);
    switched?.map(({ client }) => client.close());
  });
});
