import { countAsyncHops, hopsPerCall, type AsyncHops } from './async-hops';
import type { EchoClient } from './clients/echo-client';
import { CALL_PAYLOAD } from './payload';
import type { ServerProcess } from './server-process';

/** Sequential calls counted (after as many unmeasured ones): enough that a timer every 32 calls shows. */
export const HOP_CALLS = 2000;

/** Each side's callbacks per sequential call, by kind (`--hops`). */
export interface CallHops {
  readonly client: AsyncHops;
  readonly server: AsyncHops;
}

/**
 * What one sequential call costs each process in turns through its queues: the client's callbacks are counted here,
 * the server's in its own process. Counting slows every promise, so this round is not timed.
 */
export async function measureHops(client: EchoClient, server: ServerProcess, calls = HOP_CALLS): Promise<CallHops> {
  for (let call = 0; call < calls; call++) await client.echo(CALL_PAYLOAD);
  const stopServer = await server.countHops();
  const stopClient = countAsyncHops();
  for (let call = 0; call < calls; call++) await client.echo(CALL_PAYLOAD);
  const clientHops = stopClient();
  const serverHops = await stopServer();
  return { client: hopsPerCall(clientHops, calls), server: hopsPerCall(serverHops, calls) };
}
