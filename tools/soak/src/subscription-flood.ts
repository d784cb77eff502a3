import { openRawPeer } from './raw-peer';
import type { SessionAddress } from './session-program';
import { until } from './waiting';

const ANSWER_TIMEOUT_MS = 120_000;

export interface FloodOutcome {
  readonly sent: number;
  readonly started: number;
  readonly refused: number;
  readonly answered: number;
  readonly ms: number;
}

/**
 * One new authenticated raw connection asks for `subscriptions` chat.$watch subscriptions as fast as its socket
 * takes the frames, and waits for each one's answer; then it goes.
 */
export async function floodSubscriptions(address: SessionAddress, subscriptions: number): Promise<FloodOutcome> {
  // Each subscription's last word: `started` (then its frames flow), or an error (a refusal may follow `started`).
  const answered = new Map<number, 'started' | 'refused'>();
  const flooder = await openRawPeer(address.socketPath, {
    token: address.token,
    onFrame(text) {
      const reply = JSON.parse(text) as { id?: unknown; result?: { type?: string }; error?: unknown };
      if (typeof reply.id !== 'number') return;
      if (reply.error !== undefined) answered.set(reply.id, 'refused');
      else if (reply.result?.type === 'started' && !answered.has(reply.id)) answered.set(reply.id, 'started');
    },
  });
  try {
    const started = performance.now();
    for (let id = 1; id <= subscriptions; id++) {
      flooder.send(JSON.stringify({ id, method: 'subscription', params: { path: 'chat.$watch' } }));
    }
    await until(() => answered.size >= subscriptions || !flooder.isOpen(), ANSWER_TIMEOUT_MS);
    const ms = performance.now() - started;
    const startedCount = [...answered.values()].filter((state) => state === 'started').length;
    return {
      sent: subscriptions,
      started: startedCount,
      refused: answered.size - startedCount,
      answered: answered.size,
      ms,
    };
  } finally {
    flooder.terminate();
  }
}
