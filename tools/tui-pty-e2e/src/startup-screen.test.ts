import { afterEach, beforeEach, expect, it } from 'vitest';
import { createE2eFixture, type E2eFixture } from './e2e-fixture';

let e2e: E2eFixture;
beforeEach(async () => void (e2e = await createE2eFixture()));
afterEach(() => e2e.dispose());

it('pi-tui --start with no coordinator paints at once, takes a prompt while it starts, and sends it once attached', async () => {
  const tui = e2e.spawnTui(['--start']);
  const starting = await tui.waitForScreen(
    (screen) => /◌ (Starting|Opening)[^…]*… \d+ s/.test(screen.text),
    'the startup screen before the session is up',
  );
  expect(starting.text).not.toContain('● connected');
  expect(starting.lines.at(-1)).toContain(`◌ starting  ${e2e.sandbox.cwd}`);

  tui.write('list files in .\r');
  tui.write('still typing');
  const queued = await tui.waitForScreen(
    (screen) => screen.text.includes('queued: list files in .'),
    'the prompt queued on the startup screen',
  );
  expect(queued.text).not.toContain('● connected');

  const answered = await tui.waitForScreen(
    (screen) => screen.text.includes('● connected') && screen.text.includes('The ls tool returned'),
    'the queued prompt answered by the offline model once attached',
  );
  expect(answered.text).toContain('› list files in .');
  expect(answered.text).not.toContain('queued: list files in .');
  expect(answered.text).toContain('still typing');

  tui.press('ctrl+c');
  await tui.waitForScreen((screen) => !screen.text.includes('still typing'), 'the draft cleared');
  tui.press('ctrl+d');
  expect(await tui.exited).toEqual({ exitCode: 0, signal: 0 });
});
