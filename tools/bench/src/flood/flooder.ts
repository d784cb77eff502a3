import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { PI_TOKEN } from '../pi-token';
import type { FloodShape, FlooderCommand, FlooderReport } from './flood-protocol';

/**
 * The flooding peer, in a process of its own so that reading 10,000 answers costs the bench process (where the
 * bystander's calls are timed) nothing. It speaks the wire protocol itself, as any client may: connection params,
 * `$rpc.hello`, then `count` `$watch` subscriptions at once.
 */
if (process.send === undefined) throw new Error('The flooder must be spawned with an IPC channel');
const report = (message: FlooderReport) => process.send?.(message);
let ready: { socket: WebSocket; frames: string[]; count: number } | undefined;

process.on('disconnect', () => process.exit(0));
process.on('message', (command: FlooderCommand) => {
  switch (command.type) {
    case 'connect':
      void connect(command.url).then((socket) => {
        ready = { socket, frames: floodFrames(command.shape, command.count), count: command.count };
        report({ type: 'ready' });
      });
      return;
    case 'flood':
      if (ready === undefined) throw new Error('flood before connect');
      flood(ready.socket, ready.frames, ready.count);
      ready = undefined;
      return;
    case 'exit':
      process.exit(0);
  }
});

async function connect(url: string): Promise<WebSocket> {
  const socket = new WebSocket(`${url}${url.includes('?') ? '&' : '?'}connectionParams=1`, {
    perMessageDeflate: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(JSON.stringify({ method: 'connectionParams', data: { token: PI_TOKEN } }));
  socket.send(JSON.stringify({ id: 0, method: 'mutation', params: { path: '$rpc.hello', input: { json: null } } }));
  await new Promise<void>((resolve) => socket.once('message', () => resolve()));
  return socket;
}

function floodFrames(shape: FloodShape, count: number): string[] {
  const requests: string[] = [];
  for (let id = 1; id <= count; id++)
    requests.push(`{"id":${id},"method":"subscription","params":{"path":"bench-fanout.$watch"}}`);
  return shape === 'batch' ? [`[${requests.join(',')}]`] : requests;
}

function flood(socket: WebSocket, frames: readonly string[], count: number): void {
  const answered = new Set<number>();
  let started = 0;
  let refused = 0;
  const start = performance.now();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { id: number; error?: unknown };
    if (answered.has(message.id)) return;
    answered.add(message.id);
    if (message.error !== undefined) refused += 1;
    else started += 1;
    if (answered.size < count) return;
    report({ type: 'answered', ms: performance.now() - start, started, refused });
    socket.terminate();
  });
  for (const frame of frames) socket.send(frame);
}
