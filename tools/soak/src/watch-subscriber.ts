import { openRawPeer, type RawPeer } from './raw-peer';
import type { SessionAddress } from './session-program';
import { waitFor } from './waiting';

/** A raw `<service>.$watch` subscriber that counts what it reads, and can stop reading (`ws` pauses its socket). */
export interface WatchSubscriber {
  readonly peer: RawPeer;
  frames(): number;
  bytes(): number;
  pause(): void;
  resume(): void;
}

/** Subscribes a new authenticated connection to a service's watch; resolves once the snapshot has arrived. */
export async function subscribeRaw(address: SessionAddress, service: string): Promise<WatchSubscriber> {
  let frames = 0;
  let bytes = 0;
  const peer = await openRawPeer(address.socketPath, {
    token: address.token,
    onFrame: (text) => {
      frames++;
      bytes += text.length;
    },
  });
  peer.send(JSON.stringify({ id: 1, method: 'subscription', params: { path: `${service}.$watch` } }));
  // `started`, then the snapshot.
  await waitFor(`the ${service} subscriber got no snapshot`, () => frames >= 2, 30_000);
  return {
    peer,
    frames: () => frames,
    bytes: () => bytes,
    pause: () => peer.socket.pause(),
    resume: () => peer.socket.resume(),
  };
}
