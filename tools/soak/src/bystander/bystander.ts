import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { SessionAddress } from '../session-program';
import { BYSTANDER_ENV, type BystanderCommand, type BystanderReport, type BystanderStats } from './bystander-protocol';

const ENTRY = fileURLToPath(new URL('./bystander-main.ts', import.meta.url));
const READY_TIMEOUT_MS = 60_000;

/** A bystander client running in its own process (`bystander-main.ts`). */
export interface Bystander {
  /** What happened to it since the last window (or its start). */
  window(): Promise<BystanderStats>;
  /** Stops it; what happened to it over its whole life. */
  stop(): Promise<BystanderStats>;
}

export async function startBystander(address: SessionAddress): Promise<Bystander> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [BYSTANDER_ENV.socketPath]: address.socketPath, [BYSTANDER_ENV.token]: address.token },
  });
  await answer(child, undefined, 'ready', READY_TIMEOUT_MS);
  return {
    window: async () => (await answer(child, { type: 'window' }, 'window')).stats,
    stop: async () => {
      const { stats } = await answer(child, { type: 'stop' }, 'stopped');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      return stats;
    },
  };
}

function answer<T extends BystanderReport['type']>(
  child: ChildProcess,
  command: BystanderCommand | undefined,
  type: T,
  timeoutMs = 30_000,
): Promise<Extract<BystanderReport, { type: T }>> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      if (error !== undefined) reject(error);
    };
    const onMessage = (report: BystanderReport) => {
      if (report.type === 'failed') return done(new Error(`The bystander could not connect: ${report.message}`));
      if (report.type !== type) return;
      done();
      resolve(report as Extract<BystanderReport, { type: T }>);
    };
    const onExit = (code: number | null) => done(new Error(`The bystander exited (${code}) before "${type}"`));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      done(new Error(`The bystander did not answer "${type}" in ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (command !== undefined) child.send(command);
  });
}
