import { NO_HOPS, countAsyncHops, type AsyncHops } from './async-hops';
import { listenOnFromArgv, type ListenOn, type ServerCommand, type ServerReport } from './server-protocol';

/** What a server entry provides: its URL, and optionally a fan-out publisher. */
export interface BenchServer {
  readonly url: string;
  publish?(round: number): void;
  /** The most bytes any one connection holds on its way out (left out when the server cannot tell). */
  queuedBytes?(): number;
  close(): Promise<void>;
}

/**
 * Runs in a server child: starts the server, reports `ready` over IPC and serves commands. Exits when told to
 * or when the IPC channel closes, so a crashed bench process leaves no server behind.
 */
export async function serveBench(start: (listenOn: ListenOn) => Promise<BenchServer>): Promise<void> {
  if (process.send === undefined) throw new Error('A bench server must be spawned with an IPC channel');
  const server = await start(listenOnFromArgv(process.argv));
  const report = (message: ServerReport) => process.send?.(message);
  const exit = async () => {
    await server.close().catch(() => undefined);
    // A normal exit, so `--cpu-prof` writes its profile.
    process.exit(0);
  };
  process.on('disconnect', () => void exit());
  let stopHops: (() => AsyncHops) | undefined;
  process.on('message', (message: ServerCommand) => {
    switch (message.type) {
      case 'memory':
        void settledMemory().then((memory) => report({ type: 'memory', ...memory }));
        return;
      case 'cpu': {
        const usage = process.cpuUsage();
        report({ type: 'cpu', micros: usage.user + usage.system });
        return;
      }
      case 'publish':
        server.publish?.(message.round);
        report({ type: 'published', round: message.round });
        return;
      case 'burst':
        void burst(server, message.from, message.changes).then((memory) =>
          report({ type: 'burst-done', ...memory, queuedBytes: server.queuedBytes?.() }),
        );
        return;
      case 'hops-start':
        stopHops = countAsyncHops();
        report({ type: 'hops-started' });
        return;
      case 'hops-stop':
        report({ type: 'hops', hops: stopHops?.() ?? NO_HOPS });
        stopHops = undefined;
        return;
      case 'exit':
        void exit();
        return;
    }
  });
  report({ type: 'ready', url: server.url });
}

/** Changes published per turn of the loop in a burst: the sockets (and pi's flow control) act between turns. */
const BURST_BATCH = 100;

async function burst(server: BenchServer, from: number, changes: number): Promise<Memory> {
  for (let sent = 0; sent < changes; sent += BURST_BATCH) {
    for (let index = sent; index < Math.min(changes, sent + BURST_BATCH); index++) server.publish?.(from + index);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return settledMemory();
}

interface Memory {
  readonly heapUsed: number;
  readonly external: number;
  readonly rss: number;
}

/** Heap and RSS after full collections; sockets' native buffers settle over a turn or two of the loop. */
async function settledMemory(): Promise<Memory> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('Start the server with --expose-gc');
  for (let pass = 0; pass < 3; pass++) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const usage = process.memoryUsage();
  return { heapUsed: usage.heapUsed, external: usage.external, rss: usage.rss };
}
