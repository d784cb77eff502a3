import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compiledScript } from '@pi/compiled-script';
import type { AsyncHops } from './async-hops';
import type { ServerCommand, ServerReport } from './server-protocol';

export type SystemName = 'raw-ws' | 'trpc-wslink' | 'pi' | 'capnweb' | 'birpc';

export const SYSTEMS: readonly SystemName[] = ['raw-ws', 'trpc-wslink', 'pi', 'capnweb', 'birpc'];

/** One system's server, running in a child process of its own. */
export interface ServerProcess {
  readonly system: SystemName;
  readonly url: string;
  /** For attaching a profiler or reading the child's CPU time. */
  readonly pid: number;
  memory(): Promise<ServerMemory>;
  /** CPU time the server has used so far, in µs. */
  cpuMicros(): Promise<number>;
  /** Resolves once the server has published (the fan-out clock starts before this is sent). */
  publish(round: number): Promise<void>;
  /**
   * Publishes `changes` values numbered from `from`, then reports settled memory and the most bytes queued
   * (undefined when the server cannot tell).
   */
  burst(from: number, changes: number): Promise<ServerMemory & { queuedBytes: number | undefined }>;
  /** Counts the server's callbacks by kind from now until the returned function reports them. */
  countHops(): Promise<() => Promise<AsyncHops>>;
  stop(): Promise<void>;
}

/** After full collections in the server; `external` holds the sockets' write buffers. */
export interface ServerMemory {
  readonly heapUsed: number;
  readonly external: number;
  readonly rss: number;
}

export interface SpawnOptions {
  /** A Unix socket path, or `tcp` for a loopback port. */
  readonly listenOn: string;
  /** Extra node flags, e.g. `--cpu-prof`. */
  readonly nodeFlags?: readonly string[];
  /** Another server entry to run under the system's name, for trying out a variant. */
  readonly entry?: string;
}

/**
 * Spawns `servers/<system>.server.ts` compiled into one module for plain `node`: every system starts as a shipped
 * program does, with no loader hooks in its memory or on its clock. A profiled server (`--cpu-prof`) runs from its
 * sources through tsx's loader instead, so that `profile-summary` can name each frame's file and TypeScript line.
 */
export async function spawnServer(system: SystemName, options: SpawnOptions): Promise<ServerProcess> {
  const entry = options.entry ?? fileURLToPath(new URL(`./servers/${system}.server.ts`, import.meta.url));
  const nodeFlags = options.nodeFlags ?? [];
  const program = nodeFlags.includes('--cpu-prof') ? ['--import', 'tsx', entry] : [await compiledScript(entry)];
  const child = spawn(process.execPath, ['--expose-gc', ...nodeFlags, ...program, options.listenOn], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`The ${system} server exited (${code}) before it was ready`));
    child.once('exit', onExit);
    child.once('message', (report: ServerReport) => {
      child.off('exit', onExit);
      if (report.type !== 'ready') return reject(new Error(`The ${system} server sent ${report.type} before ready`));
      resolve(serverProcess(system, report.url, child));
    });
  });
}

function serverProcess(system: SystemName, url: string, child: ChildProcess): ServerProcess {
  const ask = <T extends ServerReport['type']>(command: ServerCommand, answer: T) =>
    new Promise<Extract<ServerReport, { type: T }>>((resolve) => {
      const onMessage = (report: ServerReport) => {
        if (report.type !== answer) return;
        child.off('message', onMessage);
        resolve(report as Extract<ServerReport, { type: T }>);
      };
      child.on('message', onMessage);
      child.send(command);
    });
  return {
    system,
    url,
    pid: child.pid ?? -1,
    memory: async () => {
      const { heapUsed, external, rss } = await ask({ type: 'memory' }, 'memory');
      return { heapUsed, external, rss };
    },
    cpuMicros: async () => (await ask({ type: 'cpu' }, 'cpu')).micros,
    publish: async (round) => {
      await ask({ type: 'publish', round }, 'published');
    },
    burst: async (from, changes) => {
      const { heapUsed, external, rss, queuedBytes } = await ask({ type: 'burst', from, changes }, 'burst-done');
      return { heapUsed, external, rss, queuedBytes };
    },
    countHops: async () => {
      await ask({ type: 'hops-start' }, 'hops-started');
      return async () => (await ask({ type: 'hops-stop' }, 'hops')).hops;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send({ type: 'exit' } satisfies ServerCommand);
      }),
  };
}
