import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createE2eFixture, type E2eFixture } from './e2e-fixture';

let e2e: E2eFixture;
beforeEach(async () => void (e2e = await createE2eFixture()));
afterEach(() => e2e.dispose());

/**
 * An editor that needs the terminal: it says it is ready, reads one line typed at it (in cooked mode, as the TUI
 * must have handed the terminal over), and appends that line to the prompt file it was given.
 */
const EDITOR_SCRIPT = `#!/bin/sh
printf 'EDITOR READY on %s\\n' "$(basename "$1")"
IFS= read -r line
printf '%s %s' "$(cat "$1")" "$line" > "$1"
`;

it('Ctrl+G opens $EDITOR on the prompt with the terminal handed over, and the saved text comes back to be sent', async () => {
  const editor = join(e2e.sandbox.root, 'line-editor.sh');
  await writeFile(editor, EDITOR_SCRIPT);
  await chmod(editor, 0o755);
  const session = await e2e.startSession();
  const tui = e2e.spawnTui(['--session', session.sessionId], undefined, { EDITOR: editor, VISUAL: '' });
  await tui.waitForScreen((screen) => screen.text.includes('offline/echo'), 'the footer');

  tui.write('fix the build');
  await tui.waitForScreen((screen) => screen.text.includes('fix the build'), 'the draft');
  tui.press('ctrl+g');
  await tui.waitForScreen((screen) => screen.text.includes('EDITOR READY on prompt.md'), 'the editor running');
  tui.write('and run the tests\r');
  await tui.waitForScreen(
    (screen) => screen.text.includes('fix the build and run the tests') && screen.text.includes('offline/echo'),
    'the edited prompt back in the TUI',
  );
  tui.press('enter');
  const answered = await tui.waitForScreen(
    (screen) => screen.text.split('fix the build and run the tests').length > 2,
    'the prompt sent and echoed',
  );
  expect(answered.text).not.toContain('EDITOR READY');
});
