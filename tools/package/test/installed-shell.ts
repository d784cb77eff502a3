import { spawn, type ChildProcess } from 'node:child_process';
import { spawnTui, type TuiPty } from '@pi/tui-pty-e2e';
import { createFreshHome } from './fresh-home';
import { runCommand, type CommandResult } from './run-command';

/** A program left running: what it printed so far, and how to end it. */
export interface RunningCommand {
  readonly child: ChildProcess;
  /** Resolves with everything it printed on stdout once `text` is among it; rejects if it exits first. */
  printed(text: string): Promise<string>;
  /** SIGTERM, and resolves once it exited. */
  stop(): Promise<void>;
}

/**
 * A user's shell just after `npm install -g` of the pi tarball: a fresh home with the local model configured, an
 * empty project as the working directory, and on PATH only the install's commands and node's folder, so a command
 * named by a hint runs from the install or not at all. Disposing it stops the coordinator a command may have
 * started (with its sessions), ends what was left running, and removes the home.
 */
export interface InstalledShell extends AsyncDisposable {
  readonly project: string;
  readonly env: Readonly<Record<string, string>>;
  /** Runs a command line given as words, stdin closed, and resolves with its exit code and output. */
  run(words: readonly string[]): Promise<CommandResult>;
  /** Starts a command line that keeps running (pi-session). */
  start(words: readonly string[]): RunningCommand;
  /** Runs a command line in a pseudo-terminal, the screen parsed as a terminal would show it (pi-tui). */
  runInTerminal(words: readonly string[]): TuiPty;
}

export async function openInstalledShell(bin: string, modelServer: string): Promise<InstalledShell> {
  const home = await createFreshHome(modelServer);
  const env = { ...home.env, PATH: `${bin}:${home.env['PATH'] ?? ''}`, TERM: 'xterm-256color', LANG: 'C.UTF-8' };
  const cwd = home.project;
  const running: RunningCommand[] = [];
  const terminals: TuiPty[] = [];
  // Node looks the command up on the PATH of `env`: the install's bin folder.
  const run = ([command, ...args]: readonly string[]) => runCommand(command ?? '', args, cwd, env);
  return {
    project: cwd,
    env,
    run,
    start(words) {
      const [program, ...args] = words;
      const child = spawn(program ?? '', args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
      const command: RunningCommand = {
        child,
        printed: (text) =>
          new Promise((resolve, reject) => {
            const check = () => {
              if (!stdout.includes(text)) return;
              child.stdout?.off('data', check);
              resolve(stdout);
            };
            child.stdout?.on('data', check);
            check();
            void exited.then(() => reject(new Error(`${words.join(' ')} exited before printing ${text}: ${stderr}`)));
          }),
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      };
      running.push(command);
      return command;
    },
    runInTerminal([command, ...args]) {
      // A pty runs the file it is given: the command as the shell would find it on PATH.
      const tui = spawnTui({ command: { file: `${bin}/${command ?? ''}`, args }, cwd, env });
      terminals.push(tui);
      return tui;
    },
    async [Symbol.asyncDispose]() {
      await Promise.all(terminals.map((tui) => tui.kill()));
      await Promise.all(running.map((command) => command.stop()));
      // `stop` with none running says so and exits 0; the sessions a coordinator started stop with it.
      await run(['pi-coordinator', 'stop']);
      await home[Symbol.asyncDispose]();
    },
  };
}

/**
 * The command a hint names between backticks right after `lead` (`start it with \`pi-coordinator start\``), as the
 * words a shell would split it into: the hints quote a word only when it holds a space or a quote, which these
 * fresh homes' paths do not.
 */
export function hintedCommand(text: string, lead: string): string[] {
  const at = text.indexOf(`${lead} \``);
  if (at === -1) throw new Error(`No command after "${lead}" in: ${text}`);
  const start = at + lead.length + 2;
  const command = text.slice(start, text.indexOf('`', start));
  if (/['"\\]/.test(command)) throw new Error(`The hinted command ${command} is quoted: split it as a shell would`);
  return command.split(' ');
}
