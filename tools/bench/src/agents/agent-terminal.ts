import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type * as XtermHeadless from '@xterm/headless';
import { spawn } from '@lydell/node-pty';

// @xterm/headless is a CommonJS bundle whose named exports Node's ESM loader cannot see.
const { Terminal } = createRequire(import.meta.url)('@xterm/headless') as typeof XtermHeadless;

/** A program in a real pseudo-terminal, its output parsed by a headless xterm: the screen a person would see. */
export interface AgentTerminal {
  readonly pid: number;
  /** Types raw bytes, as a terminal sends them for the keys pressed (`\r` Enter, `\x7f` Backspace). */
  write(data: string): void;
  /** The visible rows joined by newlines, once everything received so far has been parsed. */
  screen(): Promise<string>;
  /**
   * When the screen first satisfies `predicate`: the arrival time (performance.now()) of the output chunk whose
   * parsing made it so. Checked after each chunk is parsed, so the time is that of the bytes, not of the check.
   */
  whenScreen(predicate: (screen: string) => boolean, what: string, timeoutMs: number): Promise<number>;
  /** Resolves once no output arrived for `quietMs`. */
  settle(quietMs: number, timeoutMs: number): Promise<void>;
  readonly exited: Promise<void>;
  kill(signal: NodeJS.Signals): void;
}

export interface AgentTerminalOptions {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cols: number;
  readonly rows: number;
}

export function spawnAgentTerminal(options: AgentTerminalOptions): AgentTerminal {
  const terminal = new Terminal({ cols: options.cols, rows: options.rows, allowProposedApi: true, scrollback: 200 });
  const pty = spawn(options.file, [...options.args], {
    name: 'xterm-256color',
    cols: options.cols,
    rows: options.rows,
    cwd: options.cwd,
    env: options.env,
    encoding: 'utf8',
  });
  let running = true;
  let lastArrival = performance.now();
  const watchers = new Set<(arrival: number) => void>();
  pty.onData((data) => {
    const arrival = performance.now();
    lastArrival = arrival;
    terminal.write(data, () => {
      for (const watcher of watchers) watcher(arrival);
    });
  });
  // A real terminal answers the program's queries (cursor position, device attributes): so does this one.
  terminal.onData((reply) => {
    if (running) pty.write(reply);
  });
  const exited = new Promise<void>((resolve) =>
    pty.onExit(() => {
      running = false;
      resolve();
    }),
  );
  const read = () => {
    const buffer = terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < terminal.rows; row++) {
      lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    }
    return lines.join('\n');
  };
  const screen = () => new Promise<string>((resolve) => terminal.write('', () => resolve(read())));
  return {
    pid: pty.pid,
    write(data) {
      if (running) pty.write(data);
    },
    screen,
    whenScreen(predicate, what, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = (arrival: number) => {
          if (!predicate(read())) return;
          finish();
          resolve(arrival);
        };
        const finish = () => {
          clearTimeout(timer);
          watchers.delete(check);
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`The screen never showed ${what} within ${timeoutMs} ms. It shows:\n${read()}`));
        }, timeoutMs);
        watchers.add(check);
        void exited.then(() => {
          if (!watchers.has(check)) return;
          finish();
          reject(new Error(`The program exited before the screen showed ${what}. It shows:\n${read()}`));
        });
        // What was already parsed may satisfy it: the time is then that of the last chunk.
        void screen().then((text) => {
          if (watchers.has(check) && predicate(text)) check(lastArrival);
        });
      });
    },
    async settle(quietMs, timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      while (performance.now() - lastArrival < quietMs) {
        if (performance.now() > deadline) throw new Error(`The output never went quiet for ${quietMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, quietMs / 4));
      }
      await screen();
    },
    exited,
    kill(signal) {
      if (running) pty.kill(signal);
    },
  };
}
