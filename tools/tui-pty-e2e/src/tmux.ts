import { execFile, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PI_TUI_BIN } from './bins';
import { pollUntil } from './polling';
import type { Sandbox } from './sandbox';

const CLEAR_SCREEN = '\x1b[2J';
const SYNC_END = '\x1b[?2026l';

/** Whether tmux runs here; the tests that need it are skipped without it. */
export const TMUX_AVAILABLE = spawnSync('tmux', ['-V']).status === 0;

/** What tmux holds for the pane: its own grid, as its clients (and a person) see it. */
export interface PaneCapture {
  /** Each row's text, trailing blanks trimmed (`capture-pane -p`). */
  readonly lines: readonly string[];
  readonly cursor: { readonly row: number; readonly col: number };
  /** The character in the cell under the cursor, as tmux holds it. */
  readonly cursorCharacter: string;
}

/** `pi-tui` in a pane of a private tmux server: the real terminal many people run pi in. */
export interface TmuxTui {
  /** Types literal text (`send-keys -l`), as keys typed one after another. */
  type(text: string): Promise<void>;
  /** Presses keys by tmux's names for them: `Left`, `BSpace`, `Enter`, `PPage`, `C-c`. */
  press(...keys: string[]): Promise<void>;
  /** Pastes text as a terminal does, in bracketed-paste markers (`paste-buffer -p`). */
  paste(text: string): Promise<void>;
  resize(cols: number, rows: number): Promise<void>;
  /** Runs `action`, then waits until pi-tui has cleared the screen and drawn a whole frame after it. */
  redrawnAfter(action: () => Promise<void>): Promise<void>;
  capture(): Promise<PaneCapture>;
  /** Polls until `accept` holds on a capture that stayed the same over three polls in a row (a settled frame). */
  waitFor(accept: (capture: PaneCapture) => boolean, what: string): Promise<PaneCapture>;
  /** Ends the tmux server and everything in it (it exits in the background, up to ~1.5 s later). */
  kill(): Promise<void>;
}

/** Starts a tmux server of the sandbox's own (socket in the sandbox, no config file) running `pi-tui <args>`. */
export function startTmuxTui(sandbox: Sandbox, args: readonly string[], cols = 80, rows = 24): Promise<TmuxTui> {
  return startTmuxPane(sandbox, [process.execPath, PI_TUI_BIN, ...args], cols, rows);
}

let panesStarted = 0;

/** Starts a tmux server of the sandbox's own running `command` in its one pane. */
export async function startTmuxPane(
  sandbox: Sandbox,
  command: readonly string[],
  cols: number,
  rows: number,
): Promise<TmuxTui> {
  // A socket of each pane's own: `kill-server` returns before the server has exited, and a server started next on
  // the same socket would reach the exiting one ("server exited unexpectedly").
  const socket = join(sandbox.root, `tmux-${++panesStarted}`);
  // -u: UTF-8 whatever the locale says; the pane runs in the sandbox's environment, which the server inherits.
  const tmux = (...command: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile('tmux', ['-u', '-S', socket, '-f', '/dev/null', ...command], { env: sandbox.env }, (error, stdout) =>
        error === null ? resolve(stdout) : reject(error),
      ),
    );
  const size = ['-x', String(cols), '-y', String(rows)];
  // What pi-tui writes also goes to a file, so a test can wait for a frame it caused.
  const log = join(sandbox.root, 'tmux-output');
  await tmux('new-session', '-d', '-s', 'pi', ...size, '-c', sandbox.cwd, ...command);
  await tmux('pipe-pane', '-t', 'pi', '-o', `cat >> '${log}'`);
  const capture = async (): Promise<PaneCapture> => {
    const [text, cursor] = await Promise.all([
      tmux('capture-pane', '-p', '-t', 'pi'),
      tmux('display-message', '-p', '-t', 'pi', '#{cursor_x} #{cursor_y} #{cursor_character}'),
    ]);
    const [col = '0', row = '0', ...character] = cursor.replace(/\n$/, '').split(' ');
    return {
      lines: text.replace(/\n$/, '').split('\n'),
      cursor: { row: Number(row), col: Number(col) },
      cursorCharacter: character.join(' '),
    };
  };
  return {
    type: async (text) => void (await tmux('send-keys', '-t', 'pi', '-l', text)),
    press: async (...keys) => void (await tmux('send-keys', '-t', 'pi', ...keys)),
    async paste(text) {
      await tmux('set-buffer', '-b', 'test', text);
      await tmux('paste-buffer', '-p', '-d', '-b', 'test', '-t', 'pi');
    },
    resize: async (newCols, newRows) =>
      void (await tmux('resize-window', '-t', 'pi', '-x', String(newCols), '-y', String(newRows))),
    capture,
    async redrawnAfter(action) {
      const written = () => readFile(log).catch(() => Buffer.alloc(0));
      const start = (await written()).length;
      await action();
      await pollUntil(
        async () => {
          const after = (await written()).subarray(start).toString('utf8');
          const clear = after.indexOf(CLEAR_SCREEN);
          return clear !== -1 && after.indexOf(SYNC_END, clear) !== -1 ? true : undefined;
        },
        () => 'pi-tui never drew a whole new screen',
      );
    },
    async waitFor(accept, what) {
      let last: PaneCapture | undefined;
      let same = 0;
      return pollUntil(
        async () => {
          const now = await capture();
          same = last !== undefined && JSON.stringify(now) === JSON.stringify(last) ? same + 1 : 0;
          last = now;
          return same >= 2 && accept(now) ? now : undefined;
        },
        () => `tmux never showed ${what}. It shows:\n${last?.lines.join('\n') ?? '(nothing)'}`,
      );
    },
    kill: async () => void (await tmux('kill-server').catch(() => '')),
  };
}
