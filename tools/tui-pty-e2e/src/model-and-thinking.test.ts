import { afterEach, beforeEach, expect, it } from 'vitest';
import { createE2eFixture, type E2eFixture } from './e2e-fixture';
import { afterDialogArming } from './polling';

let e2e: E2eFixture;
beforeEach(async () => void (e2e = await createE2eFixture()));
afterEach(() => e2e.dispose());

/** The footer's last line: `provider/model · thinking <level>`. */
const footerModel = (lines: readonly string[]) => lines.at(-1) ?? '';

it('picks a model by filtering the picker, and cycles the thinking level, both shown in the footer', async () => {
  const session = await e2e.startSession();
  const tui = e2e.spawnTui(['--session', session.sessionId]);
  await tui.waitForScreen((screen) => footerModel(screen.lines) === 'offline/echo · thinking off', 'the footer');

  tui.press('ctrl+l');
  const picker = await tui.waitForScreen((screen) => screen.text.includes('Select a model'), 'the model picker');
  expect(picker.text).toContain('› offline/echo — Offline echo  (current)');
  expect(picker.text).toContain('  offline/thinker — Offline thinker');

  await afterDialogArming();
  tui.write('thi');
  const filtered = await tui.waitForScreen((screen) => screen.text.includes('filter: thi'), 'the filter typed');
  expect(filtered.text).toContain('› offline/thinker — Offline thinker');
  expect(filtered.text).not.toContain('offline/echo — Offline echo');

  tui.press('enter');
  // A reasoning model runs at the preferred level, `high` unless the settings say otherwise.
  const selected = await tui.waitForScreen(
    (screen) => footerModel(screen.lines) === 'offline/thinker · thinking high',
    'the thinker model in the footer',
  );
  expect(selected.text).not.toContain('Select a model');

  // Ctrl+T cycles off → low → high.
  tui.press('ctrl+t');
  await tui.waitForScreen(
    (screen) => footerModel(screen.lines) === 'offline/thinker · thinking off',
    'thinking off in the footer',
  );
  tui.press('ctrl+t');
  await tui.waitForScreen(
    (screen) => footerModel(screen.lines) === 'offline/thinker · thinking low',
    'thinking low in the footer',
  );
});
