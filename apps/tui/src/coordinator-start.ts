import { spawn } from 'node:child_process';
import { coordinatorFiles, readPidFile } from '@pi/connection-files/coordinator-paths';
import type { PiDirectories } from '@pi/connection-files/directories';
import { findPiProgram } from '@pi/connection-files/find-program';
import { isRunning } from '@pi/connection-files/process-liveness';

/** How `pi-coordinator start` ended: it returns once the coordinator answers, or says why it did not. */
export interface CoordinatorStartOutcome {
  readonly code: number | null;
  /** Its stdout and stderr: the last line says why when it failed. */
  readonly output: string;
}

/** A `pi-coordinator start` pi-tui's entry began before the rest of pi-tui loaded. */
export interface EarlyCoordinatorStart {
  readonly outcome: Promise<CoordinatorStartOutcome>;
}

/**
 * Runs `<program> start` for these directories (and manifest): the coordinator it starts stays in the background,
 * the start itself ends once the coordinator answers.
 */
export function runCoordinatorStart(
  program: string,
  directories: PiDirectories,
  manifest: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<CoordinatorStartOutcome> {
  const args = [program, 'start', '--data-dir', directories.dataDir, '--config-dir', directories.configDir];
  if (manifest !== undefined) args.push('--manifest', manifest);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.once('error', (error) => resolve({ code: 1, output: error.message }));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/**
 * pi-tui --start's first step, taken by its entry right after the startup screen paints, before the TUI host, the
 * transport and the facets load: when no coordinator process holds the lock, `pi-coordinator start` begins at once,
 * so the coordinator and then the session start while the rest of pi-tui loads, not after it. Undefined when a
 * coordinator holds the lock (whether it answers is checked once the transport is loaded, and it is started then if
 * need be) or pi-coordinator cannot be found (which is reported then). Only node's modules and path helpers load here.
 */
export async function startCoordinatorEarly(
  directories: PiDirectories,
  manifest: string | undefined,
  env: NodeJS.ProcessEnv,
  from: string,
): Promise<EarlyCoordinatorStart | undefined> {
  const holder = await readPidFile(coordinatorFiles(directories).lockFile);
  if (holder !== undefined && isRunning(holder)) return undefined;
  const program = await findPiProgram('pi-coordinator', from, env);
  if (program === undefined) return undefined;
  return { outcome: runCoordinatorStart(program, directories, manifest, env) };
}
