import type { FuzzFrame, FuzzKind, FuzzTargets } from './fuzz-frame';
import { createFrameGenerator } from './frame-generator';
import { openRawPeer, type RawPeer } from '../raw-peer';

export interface FuzzPlan {
  readonly socketPath: string;
  readonly token: string;
  readonly targets: FuzzTargets;
  readonly seed: number;
  readonly frames: number;
  /** Connections fuzzing at once, each with its own generator (seed + its index). */
  readonly peers: number;
  readonly signal: AbortSignal;
  /** False once the session is gone: the fuzzers stop. */
  readonly sessionAlive: () => boolean;
}

export interface FuzzTally {
  sent: number;
  bytes: number;
  replies: number;
  readonly byKind: Partial<Record<FuzzKind, number>>;
  /** Close codes of fuzzing connections the host closed, and how often. */
  readonly closes: Record<string, number>;
  connections: number;
  /** Barriers not answered in time: the host stopped reading a connection. */
  stalls: number;
  /** Replies that carried a stack trace or a source path. */
  leaks: number;
  readonly leakSamples: string[];
}

/** A frame is followed by a PING barrier every this many frames, so the host is never flooded beyond reading. */
const BARRIER_EVERY = 16;
const BARRIER_TIMEOUT_MS = 30_000;
const FIRST_FRAME_WAIT_MS = 1_000;
/** What an error reply must never carry: a stack frame, a module URL, a source location. */
const LEAK = /\n\s+at\s|file:\/\/|node:internal|\.[cm]?[jt]s:\d+:\d+/;

/** Sends `plan.frames` generated frames to a live session over `plan.peers` connections and tallies what happened. */
export async function fuzzSession(plan: FuzzPlan): Promise<FuzzTally> {
  const tally: FuzzTally = {
    sent: 0,
    bytes: 0,
    replies: 0,
    byKind: {},
    closes: {},
    connections: 0,
    stalls: 0,
    leaks: 0,
    leakSamples: [],
  };
  const onFrame = (text: string) => {
    tally.replies++;
    if (LEAK.test(text)) {
      tally.leaks++;
      if (tally.leakSamples.length < 3) tally.leakSamples.push(text.slice(0, 300));
    }
  };
  const open = async (token: string | undefined): Promise<RawPeer> => {
    tally.connections++;
    const peer = await openRawPeer(plan.socketPath, { token, onFrame });
    void peer.closed.then(({ code }) => (tally.closes[code] = (tally.closes[code] ?? 0) + 1));
    return peer;
  };
  const running = () => tally.sent < plan.frames && !plan.signal.aborted && plan.sessionAlive();
  const count = (frame: FuzzFrame) => {
    tally.sent++;
    tally.bytes += typeof frame.data === 'string' ? Buffer.byteLength(frame.data) : frame.data.byteLength;
    tally.byKind[frame.kind] = (tally.byKind[frame.kind] ?? 0) + 1;
  };

  const fuzzer = async (index: number) => {
    const next = createFrameGenerator(plan.seed + index, plan.targets);
    let peer = await open(plan.token);
    let sinceBarrier = 0;
    while (running()) {
      const frame = next();
      count(frame);
      if (frame.first) {
        await firstFrameOnly(await open(undefined), frame);
        continue;
      }
      if (!peer.isOpen()) peer = await open(plan.token);
      peer.send(frame.data, frame.binary);
      if (++sinceBarrier < BARRIER_EVERY && frame.data.length < 65_536) continue;
      sinceBarrier = 0;
      if (!(await peer.barrier(BARRIER_TIMEOUT_MS)) && peer.isOpen()) {
        tally.stalls++;
        peer.terminate();
      }
    }
    peer.terminate();
  };
  await Promise.all(Array.from({ length: plan.peers }, (_, index) => fuzzer(index)));
  return tally;
}

/** A new connection whose first frame is the fuzzed one (where its connection params belong), then dropped. */
async function firstFrameOnly(peer: RawPeer, frame: FuzzFrame): Promise<void> {
  peer.send(frame.data, frame.binary);
  await Promise.race([peer.closed, new Promise((resolve) => setTimeout(resolve, FIRST_FRAME_WAIT_MS))]);
  peer.terminate();
}
