import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '@pi/test-support';
import { startedLines, stoppedLine } from '../src/announcements';
import type { CliOptions } from '../src/cli-options';
import type { RunningSession } from '../src/start-session';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

const OPTIONS: CliOptions = {
  help: false,
  cwd: '/work/project',
  sessionId: undefined,
  manifest: undefined,
  socket: undefined,
  port: undefined,
  dataDir: undefined,
  configDir: undefined,
  upstreamFd: undefined,
  stopWithStdin: false,
  dev: false,
  coordinator: undefined,
  listen: undefined,
};

const SESSION = {
  sessionId: 's-1',
  socketPath: '/run/pi/s-1.sock',
  url: null,
  connectionFile: '/data/pi/sessions/s-1.connection.json',
} as RunningSession;

describe('what pi-session prints', () => {
  it('names where it listens and its connection file, then how to attach', () => {
    expect(startedLines(SESSION, OPTIONS, '/work/project')).toEqual([
      'pi-session s-1: listening on /run/pi/s-1.sock (connection file: /data/pi/sessions/s-1.connection.json)',
      'pi-session s-1: attach with `pi-tui --session s-1` (or `pi-tui` in /work/project); `pi status --session s-1`',
    ]);
  });

  it('names how to reopen, repeating the flags that say where the session lives, quoted for a shell', () => {
    expect(stoppedLine('s-1', 'SIGTERM', OPTIONS, '/work/project')).toBe(
      'pi-session s-1: stopped on SIGTERM; reopen with `pi-session --session s-1`',
    );
    const moved = { ...OPTIONS, dataDir: '/my data', configDir: '/cfg', manifest: "/it's.json" };
    expect(stoppedLine('s-1', 'SIGINT', moved, '/elsewhere')).toBe(
      "pi-session s-1: stopped on SIGINT; reopen with `pi-session --session s-1 --cwd /work/project --data-dir '/my data' --config-dir /cfg --manifest '/it'\\''s.json'`",
    );
    expect(startedLines(SESSION, moved, '/elsewhere')[1]).toContain("`pi-tui --session s-1 --data-dir '/my data'`");
  });
});

describe('the lines of a real pi-session', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  const sandboxes: SessionSandbox[] = [];
  const processes: SessionProcess[] = [];
  afterEach(async () => {
    await Promise.all(processes.splice(0).map((process) => process.stop('SIGKILL')));
    await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.remove()));
  });

  it('the stop line reopens the same session when run as printed', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const first = runPiSession(sandbox, sandbox.flags);
    processes.push(first);
    const { sessionId } = await first.listening();
    await eventually(() => first.stdout().includes(': attach with '));
    expect(first.stdout()).toContain(
      `pi-session ${sessionId}: attach with \`pi-tui --session ${sessionId} --data-dir ${sandbox.dataDir}\``,
    );
    await first.stop('SIGTERM');
    const reopen = /reopen with `pi-session (.*)`$/m.exec(first.stdout())?.[1];
    expect(reopen).toBe(
      `--session ${sessionId} --cwd ${sandbox.cwd} --data-dir ${sandbox.dataDir} --config-dir ${sandbox.configDir}`,
    );

    const again = runPiSession(sandbox, (reopen ?? '').split(' '));
    processes.push(again);
    expect((await again.listening()).sessionId).toBe(sessionId);
  });
});
