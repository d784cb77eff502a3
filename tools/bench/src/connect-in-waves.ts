/**
 * Clients connected at most `wave` at a time. A pi host refuses sockets past `maxUnauthenticated` (128) awaiting
 * authentication, so 1,000 subscribers (or 200 idle connections) opened at once were mostly refused; connection
 * setup is never timed, so the waves change no figure. Every system's audience connects the same way.
 */
export const CONNECT_WAVE = 64;

export async function connectInWaves<T>(count: number, connect: () => Promise<T>, wave = CONNECT_WAVE): Promise<T[]> {
  const clients: T[] = [];
  while (clients.length < count) {
    const size = Math.min(wave, count - clients.length);
    clients.push(...(await Promise.all(Array.from({ length: size }, connect))));
  }
  return clients;
}
