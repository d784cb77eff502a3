import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { stopProcess } from './session-under-test';
import type { WatcherReport } from './watcher-protocol';

type StateReport = Extract<WatcherReport, { type: 'state' }>;

/** Watchers of the session's Models in a child process, and what each last saw. */
export interface Watchers {
  /** Resolves when every watcher's latest state satisfies `settled`. */
  until(settled: (state: StateReport) => boolean): Promise<void>;
  latest(): readonly StateReport[];
  stop(): Promise<void>;
}

const ENTRY = fileURLToPath(new URL('./watcher-process.ts', import.meta.url));

export async function startWatchers(cwd: string, dataDir: string, count: number): Promise<Watchers> {
  const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, cwd, dataDir, String(count)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const latest = new Map<number, StateReport>();
  let changed: (() => void) | undefined;
  child.on('message', (report: WatcherReport) => {
    if (report.type !== 'state') return;
    latest.set(report.watcher, report);
    changed?.();
  });
  await ready(child);
  return {
    latest: () => [...latest.values()],
    until: (settled) =>
      new Promise((resolve) => {
        const check = () => {
          if (latest.size < count || ![...latest.values()].every(settled)) return;
          changed = undefined;
          resolve();
        };
        changed = check;
        check();
      }),
    stop: async () => {
      child.disconnect();
      await stopProcess(child);
    },
  };
}

function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (report: WatcherReport) => {
      if (report.type === 'failed') reject(new Error(`The watchers failed: ${report.message}`));
      if (report.type === 'ready') resolve();
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`The watchers exited (${code}) before they were ready`)));
  });
}
