import { bulkValue, fanoutValue } from '../payload';
import { serveBench } from '../server-harness';
import { listenWss } from './ws-listen';

/**
 * The floor: a `ws` server that parses each JSON request and answers `{ id, result }`. `echo` returns the
 * payload; `bulk` returns the 1 MB value (stringified per request, as a real server would). Fan-out sends one
 * stringified value to every client.
 */
// Frames: in { id, op: 'echo', payload } | { id, op: 'bulk' }; out { id, result }; broadcast: the bare value.
await serveBench(async (listenOn) => {
  const listening = await listenWss(listenOn);
  const bulk = bulkValue();
  listening.wss.on('connection', (socket) => {
    socket.on('message', (data) => {
      const request = JSON.parse(data.toString()) as { id: number; op: 'echo' | 'bulk'; payload?: unknown };
      const result = request.op === 'bulk' ? bulk : request.payload;
      socket.send(JSON.stringify({ id: request.id, result }));
    });
  });
  return {
    url: listening.url,
    publish(round) {
      const frame = JSON.stringify(fanoutValue(round));
      for (const client of listening.wss.clients) client.send(frame);
    },
    queuedBytes: () => Math.max(0, ...[...listening.wss.clients].map((client) => client.bufferedAmount)),
    close: () => listening.close(),
  };
});
