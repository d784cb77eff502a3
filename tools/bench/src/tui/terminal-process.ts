import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

/** A node program run on a terminal of a given size (a pty when node-pty loads, else pipes), its output watched. */
export interface TerminalProcess {
  readonly pid: number;
  /** When the output's visible text (escape sequences dropped, cursor-forward as spaces) first contains `text`. */
  whenShown(text: string, timeoutMs?: number): Promise<number>;
  readonly exited: Promise<void>;
  kill(signal: NodeJS.Signals): void;
}

export type TerminalKind = 'pty' | 'pipe';

export interface RunOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly columns: number;
  readonly rows: number;
}

/** The part of node-pty used here, typed locally so the benchmark neither needs nor pins it. */
interface PtyModule {
  spawn(
    file: string,
    args: string[],
    options: { name: string; cols: number; rows: number; cwd: string; env: NodeJS.ProcessEnv },
  ): {
    readonly pid: number;
    onData(listener: (data: string) => void): void;
    onExit(listener: () => void): void;
    kill(signal?: string): void;
  };
}

let pty: Promise<PtyModule | undefined> | undefined;

/** node-pty if it is installed and its native part loads; otherwise undefined (the benchmark then uses pipes). */
export function loadPty(): Promise<PtyModule | undefined> {
  const name = '@lydell/node-pty';
  return (pty ??= import(name).then(
    (module: { default?: PtyModule } & Partial<PtyModule>) => (module.default ?? (module as PtyModule)) as PtyModule,
    () => undefined,
  ));
}

/** Runs `node <args>` (see `runProgram`). */
export function runNode(kind: TerminalKind, args: readonly string[], options: RunOptions): Promise<TerminalProcess> {
  return runProgram(kind, process.execPath, args, options);
}

/**
 * Runs `file <args>` (node, or a program that runs node, such as npm). On pipes, stdout is no TTY and blessed would
 * lay out a 1×1 screen, so every node process is given the size through `--import` (in NODE_OPTIONS) of a one-line
 * module setting `process.stdout.columns`/`rows`.
 */
export async function runProgram(
  kind: TerminalKind,
  file: string,
  args: readonly string[],
  options: RunOptions,
): Promise<TerminalProcess> {
  let raw = '';
  const watchers = new Set<() => void>();
  const received = (chunk: string) => {
    raw += chunk;
    for (const watcher of watchers) watcher();
  };
  let pid: number;
  let exited: Promise<void>;
  let kill: (signal: NodeJS.Signals) => void;
  const module = kind === 'pty' ? await loadPty() : undefined;
  if (kind === 'pty') {
    if (module === undefined) throw new Error('@lydell/node-pty is not available');
    const child = module.spawn(file, [...args], {
      name: 'xterm-256color',
      cols: options.columns,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
    });
    child.onData(received);
    exited = new Promise((resolve) => child.onExit(() => resolve()));
    pid = child.pid;
    kill = (signal) => child.kill(signal);
  } else {
    const size = `process.stdout.columns=${options.columns};process.stdout.rows=${options.rows};`;
    const sized = `--import=data:text/javascript,${encodeURIComponent(size)}`;
    const nodeOptions = [options.env['NODE_OPTIONS'], sized].filter(Boolean).join(' ');
    const child = spawn(file, [...args], {
      cwd: options.cwd,
      env: { ...options.env, NODE_OPTIONS: nodeOptions },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // A program that cannot start (missing, not executable) is a clear failure here, never an unhandled 'error'.
    const failed = await new Promise<Error | undefined>((resolve) => {
      child.once('spawn', () => resolve(undefined));
      child.once('error', resolve);
    });
    if (failed !== undefined) throw new Error(`Cannot run ${file}: ${failed.message}`);
    child.stdout.setEncoding('utf8').on('data', received);
    child.stderr.setEncoding('utf8').on('data', received);
    exited = new Promise((resolve) => child.once('exit', () => resolve()));
    pid = child.pid ?? 0;
    kill = (signal) => void child.kill(signal);
  }
  return {
    pid,
    exited,
    kill,
    whenShown(text, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!visibleText(raw).includes(text)) return;
          finish();
          resolve(performance.now());
        };
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`"${text}" not shown within ${timeoutMs} ms; output: ${JSON.stringify(raw.slice(-400))}`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          watchers.delete(check);
        };
        watchers.add(check);
        void exited.then(() => {
          if (!watchers.has(check)) return;
          finish();
          reject(new Error(`Exited before "${text}" was shown; output: ${JSON.stringify(raw.slice(-400))}`));
        });
        check();
      });
    },
  };
}

// eslint-disable-next-line no-control-regex -- terminal sequences start with ESC
const SEQUENCE = /\x1b\[(\d*)C|\x1b\[[0-9;?<>=]*[A-Za-z]|\x1b[78=>]|\x1b\][^\x07]*\x07/g;

/** What a reader would see of the stream, roughly: escape sequences dropped, cursor-forward moves as spaces. */
export function visibleText(raw: string): string {
  return raw.replace(SEQUENCE, (_, forward: string | undefined) =>
    forward === undefined ? '' : ' '.repeat(Number(forward === '' ? 1 : forward)),
  );
}
