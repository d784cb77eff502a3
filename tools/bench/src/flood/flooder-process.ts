import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compiledScript } from '@pi/compiled-script';
import type { FloodShape, FlooderCommand, FlooderReport } from './flood-protocol';

type Answered = Extract<FlooderReport, { type: 'answered' }>;

/** The flooder child (`flooder.ts`): connects, floods when told, reports when every request is answered. */
export interface FlooderProcess {
  connect(url: string, shape: FloodShape, count: number): Promise<void>;
  /** Sends the flood now; resolves once the host has answered every request. */
  flood(): Promise<Answered>;
  stop(): Promise<void>;
}

export async function spawnFlooder(): Promise<FlooderProcess> {
  const entry = fileURLToPath(new URL('./flooder.ts', import.meta.url));
  const child = spawn(process.execPath, [await compiledScript(entry)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return {
    connect: async (url, shape, count) => {
      await ask(child, { type: 'connect', url, shape, count }, 'ready');
    },
    flood: () => ask(child, { type: 'flood' }, 'answered'),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ type: 'exit' } satisfies FlooderCommand);
      }),
  };
}

function ask<T extends FlooderReport['type']>(
  child: ChildProcess,
  command: FlooderCommand,
  answer: T,
): Promise<Extract<FlooderReport, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onExit = () => reject(new Error(`The flooder exited before it sent ${answer}`));
    const onMessage = (report: FlooderReport) => {
      if (report.type !== answer) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(report as Extract<FlooderReport, { type: T }>);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send(command);
  });
}
