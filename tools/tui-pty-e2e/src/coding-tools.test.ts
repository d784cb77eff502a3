import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createE2eFixture, type E2eFixture } from './e2e-fixture';
import { afterDialogArming } from './polling';
import type { TuiPty } from './tui-pty';

let e2e: E2eFixture;
beforeEach(async () => void (e2e = await createE2eFixture()));
afterEach(() => e2e.dispose());

/** git in the sandbox project, with no global config and a fixed identity, so the machine's settings never matter. */
function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=pi test', '-c', 'user.email=pi@test', ...args], {
    cwd,
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_SYSTEM: '/dev/null' },
    stdio: 'ignore',
  });
}

/** Answers the permission dialog with "Allow once" (its first row), once single keys count. */
async function allowOnce(tui: TuiPty, tool: string): Promise<void> {
  await tui.waitForScreen((screen) => screen.text.includes(`Allow ${tool}?`), `the confirm dialog for ${tool}`);
  await afterDialogArming();
  tui.press('enter');
}

it('an edit shows its diff, bash output collapses and expands with Ctrl+O, and the footer follows the branch', async () => {
  const { cwd } = e2e.sandbox;
  await writeFile(join(cwd, 'greet.txt'), 'hello world\n');
  git(cwd, 'init', '-q', '-b', 'main');
  git(cwd, 'add', '.');
  git(cwd, 'commit', '-q', '-m', 'first');
  const session = await e2e.startSession();
  const tui = e2e.spawnTui(['--session', session.sessionId]);
  await tui.waitForScreen((screen) => /⎇ main(?!\*)/.test(screen.text), 'the clean branch in the footer');

  tui.write('replace world with pi in greet.txt');
  tui.press('enter');
  await allowOnce(tui, 'edit');
  const edited = await tui.waitForScreen((screen) => screen.text.includes('+hello pi'), 'the diff of the edit');
  expect(edited.text).toContain('-hello world');
  expect(await readFile(join(cwd, 'greet.txt'), 'utf8')).toBe('hello pi\n');
  await tui.waitForScreen((screen) => screen.text.includes('⎇ main*'), 'the dirty mark in the footer');
  // The model answers after the tool result; a prompt sent before the run settles would be refused as busy.
  await tui.waitForScreen((screen) => !screen.text.includes('esc to interrupt'), 'the run settled');

  tui.write('run `seq 1 8`');
  tui.press('enter');
  await allowOnce(tui, 'bash');
  const collapsed = await tui.waitForScreen(
    (screen) => screen.text.includes('earlier lines (ctrl+o)'),
    'collapsed output',
  );
  // The tool's block only: between its call line and the model's reply (which quotes the output again).
  const numbers = (text: string) =>
    text
      .slice(text.indexOf('bash $ seq 1 8'), text.indexOf('The bash tool returned'))
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^\d+$/.test(line));
  expect(numbers(collapsed.text)).toEqual(['4', '5', '6', '7', '8']);

  tui.press('ctrl+o');
  const expanded = await tui.waitForScreen(
    (screen) => !screen.text.includes('earlier lines (ctrl+o)'),
    'expanded output',
  );
  expect(numbers(expanded.text)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
});
