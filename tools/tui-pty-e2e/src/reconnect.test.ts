import { afterEach, beforeEach, expect, it } from 'vitest';
import { createE2eFixture, type E2eFixture } from './e2e-fixture';
import type { Screen } from './screen';

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
