import { performance } from 'node:perf_hooks';
import { connectPiClient } from './clients/pi.client';
import { connectRawWs } from './clients/raw-ws.client';
import { BenchBulk } from './pi-services';
import { median } from './stats';

/** Hydrations timed per round, each on a fresh connection. */
export const HYDRATIONS_PER_ROUND = 4;

/** pi: from `use()` to a replica whose 1 MB value is readable (connecting is not timed). */
export async function measurePiHydration(url: string, hydrations = HYDRATIONS_PER_ROUND): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < hydrations; index++) {
    const client = await connectPiClient(url);
    const start = performance.now();
    const bulk = await client.use(BenchBulk);
    if (bulk.bulk.value.files.length === 0) throw new Error('The replica is empty');
    times.push((performance.now() - start) * 1000);
    client.close();
  }
  return median(times);
}

/** The floor: one raw request answered with the same 1 MB value as JSON. */
export async function measureRawFetch(url: string, hydrations = HYDRATIONS_PER_ROUND): Promise<number> {
  const times: number[] = [];
  for (let index = 0; index < hydrations; index++) {
    const client = await connectRawWs(url);
    const start = performance.now();
    const bulk = (await client.bulk()) as { files: unknown[] };
    if (bulk.files.length === 0) throw new Error('The value is empty');
    times.push((performance.now() - start) * 1000);
    client.close();
  }
  return median(times);
}
