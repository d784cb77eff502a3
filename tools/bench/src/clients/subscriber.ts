import type { FanoutValue } from '../payload';
import type { SystemName } from '../server-process';
import { subscribeBirpc } from './birpc.client';
import { subscribeCapnweb } from './capnweb.client';
import { subscribePi } from './pi.client';
import { subscribeRawWs } from './raw-ws.client';
import { subscribeTrpcWsLink } from './trpc-wslink.client';

/**
 * One client subscribed to the fan-out cell in its library's own way, whose socket can stop reading (`ws`'s
 * `pause()`; pi: `WireSocket.pause`), as a slow subscriber's would. Resolves once the subscription is live.
 */
export interface PausableSubscriber {
  pause(): void;
  resume(): void;
  close(): void;
}

export type Subscribe = (url: string, onValue: (value: FanoutValue) => void) => Promise<PausableSubscriber>;

/** Each system's subscriber, by name; a missing entry is a compile error. */
export const SUBSCRIBE: Record<SystemName, Subscribe> = {
  'raw-ws': subscribeRawWs,
  'trpc-wslink': subscribeTrpcWsLink,
  pi: subscribePi,
  capnweb: subscribeCapnweb,
  birpc: subscribeBirpc,
};
