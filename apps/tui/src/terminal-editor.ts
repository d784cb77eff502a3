import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReadStream } from 'node:tty';
import { err, ok, type Result } from 'neverthrow';
import type { ExternalEditor } from '@pi/host-tui';
import { enterTerminal, restoreTerminal } from '@pi/terminal';

export interface TerminalEditorOptions {
  readonly input: NodeJS.ReadStream | ReadStream;
  readonly output: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
}

/**
 * `$VISUAL`, else `$EDITOR`, run by the shell on a temporary `prompt.md` holding the text (so `code --wait` or
 * `emacs -nw` work as typed), with the terminal its own until it exits: cooked mode, our modes off. A non-zero exit
 * keeps the prompt as it was, as git does with a commit message.
 */
export function terminalEditor(options: TerminalEditorOptions): ExternalEditor {
  return async (text) => {
    const command = (options.env['VISUAL'] || options.env['EDITOR'] || '').trim();
    if (command === '') return err('Set $VISUAL or $EDITOR to edit the prompt in your editor');
    const folder = await mkdtemp(join(tmpdir(), 'pi-prompt-'));
    const file = join(folder, 'prompt.md');
    try {
      await writeFile(file, text, { mode: 0o600 });
      const exit = await handOver(options, () => run(command, file, options.env));
      if (exit.isErr()) return err(`${command} could not start (${exit.error}): the prompt is unchanged`);
      // The shell's 127: the command is not there.
      if (exit.value === 127) return err(`${command}: command not found (check $VISUAL or $EDITOR)`);
      if (exit.value !== 0) return err(`${command} exited with code ${exit.value}: the prompt is unchanged`);
      return ok(await readFile(file, 'utf8'));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  };
}

async function handOver<T>(options: TerminalEditorOptions, work: () => Promise<T>): Promise<T> {
  const { input, output } = options;
  const tty = 'setRawMode' in input && input.isTTY === true;
  output.write(restoreTerminal());
  if (tty) input.setRawMode(false);
  input.pause();
  try {
    return await work();
  } finally {
    if (tty) input.setRawMode(true);
    input.resume();
    output.write(enterTerminal({ altScreen: false }));
  }
}

function run(command: string, file: string, env: NodeJS.ProcessEnv): Promise<Result<number, string>> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', `${command} "$1"`, 'sh', file], { stdio: 'inherit', env });
    child.once('error', (error) => resolve(err(error.message)));
    child.once('exit', (code) => resolve(ok(code ?? 1)));
  });
}
