import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from '@pi/client';
import { RemoteError } from '@pi/remote';
import { summarizeLatencies } from '../figures';
import { BYSTANDER_ENV, type BystanderCommand, type BystanderReport, type BystanderStats } from './bystander-protocol';

/**
 * A bystander: an ordinary client in a process of its own, calling `chat.operation` over and over (one call at a
 * time, a short pause between) while a row abuses the session, and counting what goes wrong for it.
 */
const PAUSE_MS = 5;
const MAX_SAMPLES = 5;

class Tally {
  calls = 0;
  failures = 0;
  drops = 0;
  readonly samples: string[] = [];
  readonly latencies: number[] = [];

  stats(): BystanderStats {
    return {
      calls: this.calls,
      failures: this.failures,
      failureSamples: [...this.samples],
      drops: this.drops,
      latency: summarizeLatencies(this.latencies),
    };
  }
}

const report = (message: BystanderReport) => process.send?.(message);
const socketPath = process.env[BYSTANDER_ENV.socketPath] ?? '';
const token = process.env[BYSTANDER_ENV.token] ?? '';
const connected = await connect({ socketPath, token, reconnect: false });
if (connected.isErr()) {
  report({ type: 'failed', message: `${connected.error.code}: ${connected.error.message}` });
  process.exit(1);
}
const client = connected.value;
const total = new Tally();
let window = new Tally();
let stopping = false;
let wasConnected = true;
client.connection.subscribe((state) => {
  if (wasConnected && state.status !== 'connected') {
    total.drops++;
    window.drops++;
  }
  wasConnected = state.status === 'connected';
});

process.on('message', (command: BystanderCommand) => {
  if (command.type === 'window') {
    report({ type: 'window', stats: window.stats() });
    window = new Tally();
  } else stopping = true;
});
process.on('disconnect', () => (stopping = true));
report({ type: 'ready' });

while (!stopping) {
  const started = performance.now();
  try {
    await client.call('chat', 'operation', [{ operationId: 'soak-bystander' }]);
    const elapsed = performance.now() - started;
    for (const tally of [total, window]) {
      tally.calls++;
      tally.latencies.push(elapsed);
    }
  } catch (error) {
    const text = error instanceof RemoteError ? `${error.code}: ${error.message}` : String(error);
    for (const tally of [total, window]) {
      tally.calls++;
      tally.failures++;
      if (tally.samples.length < MAX_SAMPLES) tally.samples.push(text);
    }
    // A dropped connection stays down (no reconnect): pace the failures rather than spin.
    await sleep(100);
  }
  await sleep(PAUSE_MS);
}
report({ type: 'stopped', stats: total.stats() });
client.close();
process.disconnect();
