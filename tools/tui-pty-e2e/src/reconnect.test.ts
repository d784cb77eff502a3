import { afterEach, beforeEach, expect, it } from 'vitest';
import { listRunningSessions } from '@pi/connection-files';
import { createE2eFixture, type E2eFixture } from './e2e-fixture';
import { isAlive, pollUntil } from './polling';
import type { Screen } from './screen';
import { readSessionConnection } from './session-process';

let e2e: E2eFixture;
beforeEach(async () => void (e2e = await createE2eFixture()));
afterEach(() => e2e.dispose());

const occurrences = (screen: Screen, text: string) => screen.text.split(text).length - 1;
const STALE = 'Disconnected from the session';

it('keeps the last transcript on screen while the session is down, and reconnects to its restart', async () => {
  const first = await e2e.startSession();
  // Through the connection file: the restarted session writes a new token there, which the TUI reads again.
  const tui = e2e.spawnTui(['--connection', first.connectionFile]);
  await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI connected');
  tui.write('before the crash');
  tui.press('enter');
  await tui.waitForScreen((screen) => screen.text.includes('You said: before the crash'), 'the answer');

  await first.stop('SIGKILL');
  const stale = await tui.waitForScreen(
    (screen) => screen.text.includes('○ disconnected') && screen.text.includes(STALE),
    'the disconnected footer and the stale notice',
  );
  expect(stale.text).toContain('— showing the last state');
  expect(occurrences(stale, '› before the crash')).toBe(1);
  expect(occurrences(stale, 'You said: before the crash')).toBe(1);
  expect(stale.text).not.toContain('● connected');

  const second = await e2e.startSession(['--session', first.sessionId]);
  expect(second.sessionId).toBe(first.sessionId);
  const restored = await tui.waitForScreen(
    (screen) => screen.text.includes('● connected') && !screen.text.includes(STALE),
    'the TUI reconnected',
  );
  // The view is rebuilt from the reopened session: the transcript once, not the stale copy plus the new one.
  expect(occurrences(restored, '› before the crash')).toBe(1);
  expect(occurrences(restored, 'You said: before the crash')).toBe(1);

  tui.write('after the restart');
  tui.press('enter');
  const answered = await tui.waitForScreen(
    (screen) => screen.text.includes('You said: after the restart'),
    'the restarted session answering',
  );
  expect(answered.text.indexOf('You said: before the crash')).toBeLessThan(
    answered.text.indexOf('You said: after the restart'),
  );
});

it('with --start, a session process killed under the TUI is started again through the coordinator, and the TUI carries on', async () => {
  const tui = e2e.spawnTui(['--start']);
  await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI connected');
  tui.write('before the kill');
  tui.press('enter');
  await tui.waitForScreen((screen) => screen.text.includes('You said: before the kill'), 'the answer');
  const [running] = await listRunningSessions(e2e.sandbox.dataDir);
  const killed = await readSessionConnection(running?.file ?? '');
  e2e.reap(killed.pid);

  process.kill(killed.pid, 'SIGKILL');
  const restarted = await pollUntil(
    async () => {
      const [again] = await listRunningSessions(e2e.sandbox.dataDir);
      if (again === undefined) return undefined;
      const info = await readSessionConnection(again.file);
      return info.pid !== killed.pid && isAlive(info.pid) ? { ...info, sessionId: again.sessionId } : undefined;
    },
    () => 'The coordinator did not start the killed session again',
  );
  e2e.reap(restarted.pid);
  expect(restarted.sessionId).toBe(running?.sessionId);
  const restored = await tui.waitForScreen(
    (screen) => screen.text.includes('● connected') && !screen.text.includes(STALE),
    'the TUI reconnected to the restarted session',
  );
  expect(occurrences(restored, 'You said: before the kill')).toBe(1);

  tui.write('after the kill');
  tui.press('enter');
  await tui.waitForScreen(
    (screen) => screen.text.includes('You said: after the kill'),
    'the restarted session answering',
  );
  tui.press('ctrl+d');
  expect(await tui.exited).toEqual({ exitCode: 0, signal: 0 });
  expect((await e2e.coordinator(['stop'])).code).toBe(0);
});
