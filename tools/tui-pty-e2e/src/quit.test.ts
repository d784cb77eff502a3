import { afterEach, beforeEach, expect, it } from 'vitest';
import { listRunningSessions } from '@pi/connection-files';
import { createE2eFixture, type E2eFixture } from './e2e-fixture';
import { isAlive, pollUntil } from './polling';
import { readSessionConnection } from './session-process';

let e2e: E2eFixture;
beforeEach(async () => void (e2e = await createE2eFixture()));
afterEach(() => e2e.dispose());

const ALT_SCREEN_ENTER = '\x1b[?1049h';
const ALT_SCREEN_LEAVE = '\x1b[?1049l';
const CURSOR_HIDE = '\x1b[?25l';
const CURSOR_SHOW = '\x1b[?25h';

it('quits on Ctrl+C twice with exit code 0 and leaves the terminal as it found it', async () => {
  const session = await e2e.startSession();
  const tui = e2e.spawnTui(['--session', session.sessionId]);
  await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI connected');
  expect(await tui.modes()).toMatchObject({ alternateScreen: true, autowrap: false });

  tui.press('ctrl+c');
  await tui.waitForScreen((screen) => screen.text.includes('Press ctrl+c again to quit'), 'the quit hint');
  tui.press('ctrl+c');
  expect(await tui.exited).toEqual({ exitCode: 0, signal: 0 });

  // node-pty may report the exit before the last bytes are read: wait for the restore that ends the output.
  const output = await pollUntil(
    () => (tui.output().endsWith(ALT_SCREEN_LEAVE) ? tui.output() : undefined),
    () => `The output does not end by leaving the alternate screen: ${JSON.stringify(tui.output().slice(-200))}`,
  );
  expect(output.lastIndexOf(CURSOR_SHOW)).toBeGreaterThan(output.lastIndexOf(CURSOR_HIDE));
  expect(output.lastIndexOf(ALT_SCREEN_LEAVE)).toBeGreaterThan(output.lastIndexOf(ALT_SCREEN_ENTER));
  expect(await tui.modes()).toEqual({
    alternateScreen: false,
    bracketedPaste: false,
    mouseTracking: 'none',
    applicationCursorKeys: false,
    synchronizedOutput: false,
    autowrap: true,
  });
  // Quitting the TUI leaves the session it attached to running.
  expect(isAlive(session.pid)).toBe(true);
});

/** The session running in the sandbox's project (started by pi-tui, not by the test): its pid, reaped on dispose. */
async function startedSessionPid(): Promise<number> {
  const [running, ...others] = await listRunningSessions(e2e.sandbox.dataDir);
  expect(others).toEqual([]);
  expect(running?.cwd).toBe(e2e.sandbox.cwd);
  const { pid } = await readSessionConnection(running?.file ?? '');
  e2e.reap(pid);
  return pid;
}

async function expectGone(pid: number): Promise<void> {
  await pollUntil(
    () => (isAlive(pid) ? undefined : true),
    () => `The session ${pid} still runs after its coordinator stopped`,
  );
  expect(await listRunningSessions(e2e.sandbox.dataDir)).toEqual([]);
}

it('pi-tui --start opens the directory’s session through the coordinator; quitting leaves it to the coordinator, whose stop leaves no process', async () => {
  const tui = e2e.spawnTui(['--start']);
  await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI connected');
  const pid = await startedSessionPid();
  expect((await e2e.coordinator(['status'])).code).toBe(0);

  tui.press('ctrl+d');
  expect(await tui.exited).toEqual({ exitCode: 0, signal: 0 });
  expect(isAlive(pid)).toBe(true);

  expect(await e2e.coordinator(['stop'])).toMatchObject({ code: 0, output: 'pi-coordinator: stopped\n' });
  await expectGone(pid);
  expect((await e2e.coordinator(['status'])).code).toBe(3);
});

it('runs `npm start` in a project directory: the coordinator opens a session there, and a second start attaches to the same one', async () => {
  const first = e2e.npmStart();
  const attached = await first.waitForScreen(
    (screen) => screen.text.includes('● connected') && screen.lines.includes('offline/echo · thinking off'),
    'the TUI connected',
  );
  expect(attached.text).toContain(e2e.sandbox.cwd);
  const pid = await startedSessionPid();

  first.press('ctrl+c');
  await first.waitForScreen((screen) => screen.text.includes('Press ctrl+c again to quit'), 'the quit hint');
  first.press('ctrl+c');
  expect(await first.exited).toEqual({ exitCode: 0, signal: 0 });

  const second = e2e.npmStart();
  await second.waitForScreen((screen) => screen.text.includes('● connected'), 'the second TUI connected');
  expect(await startedSessionPid()).toBe(pid);
  second.press('ctrl+d');
  expect(await second.exited).toEqual({ exitCode: 0, signal: 0 });

  expect((await e2e.coordinator(['stop'])).code).toBe(0);
  await expectGone(pid);
});
