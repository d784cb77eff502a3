import { createRequire } from 'node:module';
import { Unicode11Addon } from '@xterm/addon-unicode11';
import type * as XtermHeadless from '@xterm/headless';
import { spawn, type IPty } from '@lydell/node-pty';
import { PI_TUI_BIN } from './bins';
import { keyBytes, type KeyName } from './keys';
import { pollUntil } from './polling';
import { readScreen, type Screen } from './screen';

// @xterm/headless is a CommonJS bundle whose named exports Node's ESM loader cannot see.
const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as typeof XtermHeadless;

export interface TuiPtyOptions {
  /** The program and its arguments: `node pi-tui.mjs …` unless told otherwise (`npm start`, say). */
  readonly command?: { readonly file: string; readonly args: readonly string[] };
  /** pi-tui's flags, when `command` is not given. */
  readonly args?: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cols?: number;
  readonly rows?: number;
}

/** The terminal modes a program can leave behind, as the emulated terminal holds them. */
export interface TerminalModes {
  readonly alternateScreen: boolean;
  readonly bracketedPaste: boolean;
  readonly mouseTracking: string;
  readonly applicationCursorKeys: boolean;
  readonly synchronizedOutput: boolean;
  /** Autowrap (DECAWM), which the TUI turns off while it draws. */
  readonly autowrap: boolean;
}

export interface PtyExit {
  readonly exitCode: number;
  readonly signal: number | undefined;
}

/** `pi-tui` in a real pseudo-terminal, its output parsed by a headless xterm: the screen a person would see. */
export interface TuiPty {
  readonly pid: number;
  /** Types raw bytes, as a terminal sends them for the keys pressed (`\r` Enter, `\x03` Ctrl+C, ...). */
  write(data: string): void;
  /** Presses one key: its bytes as the terminal would send them now. */
  press(key: KeyName): void;
  /** Resizes the emulated terminal, then the pty (the TUI gets SIGWINCH), as a terminal window does. */
  resize(cols: number, rows: number): Promise<void>;
  /** The screen once everything the TUI wrote so far has been parsed. */
  screen(): Promise<Screen>;
  /** The modes the emulated terminal is in once everything written so far has been parsed. */
  modes(): Promise<TerminalModes>;
  /**
   * Polls the screen until `predicate` holds on a settled screen — no byte arrived during the last two polls and
   * no synchronized update is open — so that a frame split across pty reads is not judged half drawn; fails with
   * the last screen when it never does.
   */
  waitForScreen(predicate: (screen: Screen) => boolean, what: string): Promise<Screen>;
  /** Every byte the TUI wrote, as text. */
  output(): string;
  readonly exited: Promise<PtyExit>;
  /** Ends the TUI (SIGKILL unless told otherwise) if it still runs, and waits for it. */
  kill(signal?: NodeJS.Signals): Promise<PtyExit>;
}

export function spawnTui(options: TuiPtyOptions): TuiPty {
  const cols = options.cols ?? 100;
  const rows = options.rows ?? 30;
  const terminal = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 1000 });
  // Current widths (CJK and emoji take two columns), as the TUI measures them and modern terminals draw them.
  terminal.loadAddon(new Unicode11Addon());
  terminal.unicode.activeVersion = '11';
  const { file, args } = options.command ?? { file: process.execPath, args: [PI_TUI_BIN, ...(options.args ?? [])] };
  const pty: IPty = spawn(file, [...args], {
    name: 'xterm-256color',
    cols,
    rows,
    cwd: options.cwd,
    env: options.env,
    encoding: 'utf8',
  });
  let output = '';
  let received = 0;
  let running = true;
  pty.onData((data) => {
    output += data;
    received += 1;
    terminal.write(data);
  });
  // A real terminal answers the program's queries (cursor position, device attributes): so does this one.
  terminal.onData((reply) => {
    if (running) pty.write(reply);
  });
  const exited = new Promise<PtyExit>((resolve) =>
    pty.onExit(({ exitCode, signal }) => {
      running = false;
      resolve({ exitCode, signal });
    }),
  );
  const screen = () => new Promise<Screen>((resolve) => terminal.write('', () => resolve(readScreen(terminal))));
  return {
    pid: pty.pid,
    write(data) {
      if (running) pty.write(data);
    },
    press(key) {
      if (running) pty.write(keyBytes(key, terminal.modes.applicationCursorKeysMode));
    },
    async resize(newCols, newRows) {
      // What the TUI drew for the old size is parsed at the old size first.
      await screen();
      terminal.resize(newCols, newRows);
      if (running) pty.resize(newCols, newRows);
    },
    screen,
    async modes() {
      await screen();
      const { modes } = terminal;
      return {
        alternateScreen: terminal.buffer.active.type === 'alternate',
        bracketedPaste: modes.bracketedPasteMode,
        mouseTracking: modes.mouseTrackingMode,
        applicationCursorKeys: modes.applicationCursorKeysMode,
        synchronizedOutput: modes.synchronizedOutputMode,
        autowrap: modes.wraparoundMode,
      };
    },
    async waitForScreen(predicate, what) {
      let last: Screen | undefined;
      let seen = -1;
      let quietPolls = 0;
      return pollUntil(
        async () => {
          quietPolls = received === seen ? quietPolls + 1 : 0;
          seen = received;
          last = await screen();
          const settled = quietPolls >= 2 && !terminal.modes.synchronizedOutputMode;
          return settled && predicate(last) ? last : undefined;
        },
        () => `The screen never showed ${what}. It shows:\n${last?.text ?? '(nothing)'}`,
      );
    },
    output: () => output,
    exited,
    async kill(signal = 'SIGKILL') {
      if (running) pty.kill(signal);
      return exited;
    },
  };
}
