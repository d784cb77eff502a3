import { listenOnFromArgv, type ListenOn, type ServerCommand, type ServerReport } from './server-protocol';

/** What a server entry provides: its URL, and optionally a fan-out publisher. */
export interface BenchServer {
  readonly url: string;
  publish?(round: number): void;
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
      case 'exit':
        void exit();
        return;
    }
  });
  report({ type: 'ready', url: server.url });
}

/** Heap and RSS after full collections; sockets' native buffers settle over a turn or two of the loop. */
async function settledMemory(): Promise<{ heapUsed: number; rss: number }> {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('Start the server with --expose-gc');
  for (let pass = 0; pass < 3; pass++) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const usage = process.memoryUsage();
  return { heapUsed: usage.heapUsed, rss: usage.rss };
}
