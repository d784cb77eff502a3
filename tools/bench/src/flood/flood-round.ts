import { performance } from 'node:perf_hooks';
import { connectPi } from '../clients/pi.client';
import type { EchoClient } from '../clients/echo-client';
import { CALL_PAYLOAD } from '../payload';
import type { ServerProcess } from '../server-process';
import type { FloodShape } from './flood-protocol';
import type { FlooderProcess } from './flooder-process';
import { summarizeLatencies, type LatencySummary } from './latency';

export interface FloodSettings {
  /** Requests the flooder sends at once. */
  readonly count: number;
  /** Sequential bystander calls timed without a flood. */
  readonly quietCalls: number;
}

export interface FloodRound {
  /** The bystander's sequential calls with no flood. */
  readonly quiet: LatencySummary;
  /** The bystander's sequential calls from the moment the flood is sent until its last request is answered. */
  readonly flooded: LatencySummary;
  /** From the flood's send to its last answer (measured by the flooder). */
  readonly floodMs: number;
  /** The host's CPU time over the flood window. */
  readonly hostCpuMs: number;
  /** Calls of the bystander that failed (its connection dropped), and were made again on a new one. */
  readonly bystanderDrops: number;
}

/** The bystander: a pi client (the product's proxy) making one call after another on its own connection. */
export class Bystander {
  drops = 0;
  #client: EchoClient | undefined;

  constructor(private readonly url: string) {}

  /**
   * One call's round trip in µs. A call whose connection dropped (the client's heartbeat gave up on a silent host)
   * counts as a drop and is made again on a new connection; its time runs from the first attempt, as its caller
   * waited.
   */
  async call(): Promise<number> {
    const start = performance.now();
    for (;;) {
      this.#client ??= await connectPi(this.url);
      try {
        await this.#client.echo(CALL_PAYLOAD);
        return (performance.now() - start) * 1000;
      } catch {
        this.drops += 1;
        this.#client.close();
        this.#client = undefined;
      }
    }
  }

  close(): void {
    this.#client?.close();
  }
}

export async function measureFloodRound(
  server: ServerProcess,
  bystander: Bystander,
  flooder: FlooderProcess,
  shape: FloodShape,
  settings: FloodSettings,
): Promise<FloodRound> {
  const quiet: number[] = [];
  for (let call = 0; call < settings.quietCalls; call++) quiet.push(await bystander.call());

  await flooder.connect(server.url, shape, settings.count);
  const dropsBefore = bystander.drops;
  const cpuBefore = await server.cpuMicros();
  let answered: { ms: number } | undefined;
  const flood = flooder.flood().then((report) => (answered = report));
  const flooded: number[] = [];
  while (answered === undefined) flooded.push(await bystander.call());
  const hostCpuMs = ((await server.cpuMicros()) - cpuBefore) / 1000;
  const { ms: floodMs } = await flood;
  // The flooder closed its connection: let the host end its subscriptions before the next round.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    quiet: summarizeLatencies(quiet),
    flooded: summarizeLatencies(flooded),
    floodMs,
    hostCpuMs,
    bystanderDrops: bystander.drops - dropsBefore,
  };
}
