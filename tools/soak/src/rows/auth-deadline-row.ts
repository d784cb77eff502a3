import { startBystander } from '../bystander/bystander';
import { count, latencyText, ms } from '../figures';
import { openRawPeer, type RawPeer } from '../raw-peer';
import { judge } from '../row-report';
import { connectClient } from '../session-client';
import { footprintOf } from '../session-footprint';
import { startSessionProgram, type SessionAddress } from '../session-program';
import type { SoakRow } from '../soak-row';

/** How long a silent peer may stay before the row calls it never dropped: well past any sane auth deadline. */
export const AUTH_DEADLINE_BOUND_MS = 60_000;
/** A silent peer's own PING: it looks alive to the host's keep-alive (any frame counts) but never authenticates. */
const PEER_PING_MS = 2_000;
const OPEN_BATCH = 100;

const WHAT =
  'raw ws peers that open the connection-params URL and never send their params, but answer (and send) pings: ' +
  'one alone, timed until the host drops it; then many at once, counted while they are held; a bystander kept ' +
  'calling and a new client tried to connect meanwhile';

export const authDeadlineRow: SoakRow = {
  name: 'auth-deadline',
  what: WHAT,
  timeLimitMs: () => 300_000,
  async run(context) {
    const many = context.quick ? 600 : 2_000;
    const home = await context.home();
    const session = await startSessionProgram(home, home.folders.project);
    context.defer(() => session.stop());
    const bystander = await startBystander(session);
    const baseline = footprintOf(session.pid);

    context.log('one silent peer, timed until dropped');
    const dropMs = await timeUntilDropped(session);
    context.log(`${count(many)} silent peers at once`);
    const flood = await openSilentPeers(session, many);
    context.defer(() => flood.peers.forEach((peer) => peer.terminate()));
    const held = flood.peers.filter((peer) => peer.isOpen()).length;
    const heldFds = footprintOf(session.pid).fds;
    const newcomer = await connectClient(session, { timeoutMs: 30_000 }).then(
      async (client) => {
        const served = await client.call('chat', 'operation', [{ operationId: 'soak-newcomer' }]).then(
          () => true,
          () => false,
        );
        client.close();
        return served;
      },
      () => false,
    );
    for (const peer of flood.peers) peer.terminate();
    const seen = await bystander.stop();
    return judge('auth-deadline', {
      what: WHAT,
      counts: [
        `1 silent peer: ${dropMs === undefined ? `still open after ${AUTH_DEADLINE_BOUND_MS / 1000} s` : 'dropped'}`,
        `${count(many)} silent peers: ${count(flood.opened)} opened, ${count(flood.refused)} refused, ${count(held)} held open at once`,
        // Reported, not judged: a bound that refuses newcomers while it is full keeps the owner out meanwhile too.
        `a new client during the flood (no retry): ${newcomer ? 'served' : 'refused'}`,
        `bystander: ${count(seen.calls)} calls, ${seen.failures} failed, ${seen.drops} drops`,
      ],
      figures: [
        `silent peer dropped after ${dropMs === undefined ? '—' : ms(dropMs)}`,
        `${count(many)} opened in ${ms(flood.openMs)}`,
        `session fds ${baseline.fds} → ${heldFds} while they were open`,
        `bystander ${latencyText(seen.latency)}`,
      ],
      checks: [
        {
          label: `a peer that never authenticates is dropped within ${AUTH_DEADLINE_BOUND_MS / 1000} s though it answers pings`,
          ok: dropMs !== undefined,
        },
        {
          label: `unauthenticated sockets are bounded (${count(held)} of ${count(many)} held at once)`,
          ok: held < many,
        },
        {
          label: `the bystander's calls all succeeded (${seen.failures} failed, ${seen.drops} drops: ${seen.failureSamples.join('; ')})`,
          ok: seen.calls > 0 && seen.failures === 0 && seen.drops === 0,
        },
      ],
    });
  },
};

/** Ms from open until the host closed a peer that never authenticates; undefined past the bound. */
async function timeUntilDropped(address: SessionAddress): Promise<number | undefined> {
  const peer = await openRawPeer(address.socketPath);
  const opened = performance.now();
  const pinging = setInterval(() => peer.send('PING'), PEER_PING_MS);
  try {
    const outcome = await Promise.race([
      peer.closed.then(() => performance.now() - opened),
      new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), AUTH_DEADLINE_BOUND_MS)),
    ]);
    return outcome;
  } finally {
    clearInterval(pinging);
    peer.terminate();
  }
}

/** Opens `count` silent peers, a batch at a time, as fast as the host accepts them. */
async function openSilentPeers(
  address: SessionAddress,
  total: number,
): Promise<{ peers: RawPeer[]; opened: number; refused: number; openMs: number }> {
  const peers: RawPeer[] = [];
  let refused = 0;
  const started = performance.now();
  for (let first = 0; first < total; first += OPEN_BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(OPEN_BATCH, total - first) }, () =>
        openRawPeer(address.socketPath).catch(() => undefined),
      ),
    );
    for (const peer of batch) {
      if (peer === undefined) refused++;
      else peers.push(peer);
    }
  }
  return { peers, opened: peers.length, refused, openMs: performance.now() - started };
}
