import type { SystemName } from '../server-process';
import { connectBirpc } from './birpc.client';
import { connectCapnweb } from './capnweb.client';
import type { EchoClient } from './echo-client';
import { connectPi } from './pi.client';
import { connectRawWs } from './raw-ws.client';
import { connectTrpcWsLink } from './trpc-wslink.client';

/** Each system's client, by name; a missing entry is a compile error. */
export const CONNECT: Record<SystemName, (url: string) => Promise<EchoClient>> = {
  'raw-ws': connectRawWs,
  'trpc-wslink': connectTrpcWsLink,
  pi: connectPi,
  capnweb: connectCapnweb,
  birpc: connectBirpc,
};
