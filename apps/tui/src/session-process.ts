import { spawn, type ChildProcess } from 'node:child_process';
import { access } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { err, ok, type Result } from 'neverthrow';

/** A session process this TUI started, and stops when it quits. */
export interface StartedSession {
  readonly child: ChildProcess;
  readonly sessionId: string;
  /** What the process wrote, for the message when it fails (the TUI owns the terminal meanwhile). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * pi-session is found beside this app when both run from their bundles (dist/apps/tui and dist/apps/session),
 * else like any installed program: `node_modules/.bin` from this app upward, then $PATH.
 */
async function findPiSession(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates: string[] = [join(here, '..', 'session', 'pi-session.mjs')];
  for (let folder = here; ; folder = dirname(folder)) {
    candidates.push(join(folder, 'node_modules', '.bin', 'pi-session'));
    if (dirname(folder) === folder) break;
  }
  for (const folder of (env['PATH'] ?? '').split(':').filter(Boolean)) candidates.push(join(folder, 'pi-session'));
  for (const candidate of candidates) {
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  return undefined;
}

const LISTENING = /^pi-session (\S+): listening on /m;

/**
 * Starts `pi-session` in `cwd` and resolves once it listens (its connection file is written by then). The
 * child gets no terminal: its output is kept for an error message, never drawn over the TUI.
 */
export async function startSessionProcess(
  cwd: string,
  extraArgs: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<Result<StartedSession, string>> {
  const bin = await findPiSession(env);
  if (bin === undefined) return err('Cannot find pi-session to start a session (install pi, or start one yourself)');
  const child = spawn(process.execPath, [resolve(bin), '--cwd', cwd, ...extraArgs], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-4000)));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-4000)));
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const sessionId = await new Promise<string | undefined>((resolveId) => {
    const check = () => {
      const match = LISTENING.exec(output);
      if (match !== null) resolveId(match[1]);
    };
    child.stdout?.on('data', check);
    void exited.then(() => resolveId(undefined));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  if (sessionId === undefined) {
    await stop();
    const last = output.trim().split('\n').at(-1) ?? '';
    return err(`The session did not start${last === '' ? '' : `: ${last.replace(/^pi-session: /, '')}`}`);
  }
  return ok({ child, sessionId, output: () => output, stop });
}
