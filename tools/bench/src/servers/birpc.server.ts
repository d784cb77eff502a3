import { createBirpc } from 'birpc';
import { serveBench } from '../server-harness';
import { birpcChannel } from '../birpc-channel';
import { listenWss } from './ws-listen';

/** birpc 4 with its defaults (a timeout per call), JSON-serialized over one `ws` socket per client. */
await serveBench(async (listenOn) => {
  const listening = await listenWss(listenOn);
  listening.wss.on('connection', (socket) => {
    createBirpc<Record<string, never>, { echo(value: unknown): unknown }>(
      { echo: (value) => value },
      birpcChannel(socket),
    );
  });
  return { url: listening.url, close: () => listening.close() };
});
