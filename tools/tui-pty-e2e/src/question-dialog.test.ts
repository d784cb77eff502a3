import { afterEach, beforeEach, expect, it } from 'vitest';
import { createE2eFixture, type E2eFixture } from './e2e-fixture';
import { afterDialogArming } from './polling';

let e2e: E2eFixture;
beforeEach(async () => void (e2e = await createE2eFixture()));
afterEach(() => e2e.dispose());

it('answers the model’s question in its dialog and shows the answer as the tool result', async () => {
  const session = await e2e.startSession();
  const tui = e2e.spawnTui(['--session', session.sessionId]);
  await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI connected');

  tui.write('ask me which colour: red, green or blue');
  tui.press('enter');
  const dialog = await tui.waitForScreen((screen) => screen.text.includes('Type something…'), 'the question dialog');
  const options = dialog.lines.map((line) => line.trim()).filter((line) => /^(› )?\d\. |Type something…/.test(line));
  expect(options).toEqual(['› 1. red', '2. green', '3. blue', 'Type something…']);

  await afterDialogArming();
  tui.press('down');
  await tui.waitForScreen((screen) => screen.text.includes('› 2. green'), 'the second option selected');
  tui.press('enter');
  const answered = await tui.waitForScreen((screen) => screen.text.includes('✓ green'), 'the tool result');
  // The result renders in the question tool's block, below its call, and the dialog is gone.
  expect(answered.text).toMatch(/question Which colour\?\n\s+Options: 1\. red, 2\. green, 3\. blue\n\s+✓ green\n/);
  expect(answered.text).not.toContain('Type something…');
});
