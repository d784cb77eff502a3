import { connect, type ClientBehaviour, type PiClient } from '@pi/client';
import type { FuzzTargets } from './fuzz/fuzz-frame';
import type { SessionAddress } from './session-program';

/** A `@pi/client` of a session, as any tool connects: its socket and token; never reconnecting unless asked. */
export async function connectClient(address: SessionAddress, behaviour: ClientBehaviour = {}): Promise<PiClient> {
  const connected = await connect({
    socketPath: address.socketPath,
    token: address.token,
    reconnect: false,
    timeoutMs: 60_000,
    ...behaviour,
  });
  if (connected.isErr()) throw new Error(`Cannot connect to ${address.sessionId}: ${connected.error.message}`);
  return connected.value;
}

/** What the session serves, as the fuzzer aims at it: every method path and every service. */
export async function fuzzTargetsOf(client: PiClient): Promise<FuzzTargets> {
  const description = await client.describe();
  return {
    methods: description.services.flatMap((service) =>
      Object.keys(service.methods).map((method) => `${service.id}.${method}`),
    ),
    services: description.services.map((service) => service.id),
  };
}
