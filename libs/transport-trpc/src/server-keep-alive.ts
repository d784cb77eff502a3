import type { ServerSocket } from './server-socket';

/**
 * Pings a client after `pingMs` without a message and terminates it if none follows within `pongWaitMs`, as tRPC's
 * adapter does, but with one timer per connection that reads the time of the last message, rather than two timers
 * cleared and re-armed for every message.
 */
export function keepAlive(socket: ServerSocket, pingMs: number, pongWaitMs: number): void {
  let lastMessage = Date.now();
  let pongWait: NodeJS.Timeout | undefined;
  let check: NodeJS.Timeout | undefined;
  const schedule = (delay: number) => {
    check = setTimeout(() => {
      const quiet = Date.now() - lastMessage;
      if (quiet < pingMs) return schedule(pingMs - quiet);
      socket.send('PING');
      pongWait = setTimeout(() => socket.terminate(), pongWaitMs);
    }, delay);
  };
  schedule(pingMs);
  socket.on('message', () => {
    lastMessage = Date.now();
    if (pongWait === undefined) return;
    clearTimeout(pongWait);
    pongWait = undefined;
    schedule(pingMs);
  });
  socket.once('close', () => {
    clearTimeout(check);
    clearTimeout(pongWait);
  });
}
