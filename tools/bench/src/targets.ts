import type { BenchResults, CallFigures, FanoutFigures, SlowSubscriberFigures } from './results';
import { ratio } from './stats';

export interface TargetCheck {
  readonly target: string;
  readonly met: boolean;
  /** The compared medians, e.g. "1.8x". */
  readonly actual: string;
}

/**
 * pi's performance targets, judged on medians: the RPC-speed issue's (CPU per call below Cap'n Web's, sequential
 * call <= 1.3x raw `ws`, 100 in flight >= 0.5x raw `ws` and ahead of Cap'n Web, fan-out <= 2x a raw broadcast,
 * memory bounded under a paused subscriber), the brief's (sequential call ahead of Cap'n Web and birpc) and, with
 * `--load`, issue 21's: pi's sequential call falls no further behind raw `ws` on a busy machine than birpc's does.
 */
export function checkTargets(results: BenchResults): TargetCheck[] {
  const { pi, capnweb, birpc } = results.systems;
  const raw = results.systems['raw-ws'];
  const seqVsRaw = ratio(pi.seqCallUs.median, raw.seqCallUs.median);
  const throughputVsRaw = ratio(pi.inFlightCallsPerSec.median, raw.inFlightCallsPerSec.median);
  const cpu = (system: CallFigures) => system.clientCpuUs.median + system.serverCpuUs.median;
  const us = (value: number) => `${Math.round(value)} µs`;
  const perSec = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;
  return [
    {
      target: 'pi CPU per call (client + server) < capnweb',
      met: cpu(pi) < cpu(capnweb),
      actual: `${us(cpu(pi))} vs ${us(cpu(capnweb))}; birpc ${us(cpu(birpc))}`,
    },
    { target: 'pi seq <= 1.3x raw-ws', met: seqVsRaw <= 1.3, actual: times(seqVsRaw) },
    {
      target: 'pi seq < capnweb',
      met: pi.seqCallUs.median < capnweb.seqCallUs.median,
      actual: `${us(pi.seqCallUs.median)} vs ${us(capnweb.seqCallUs.median)}`,
    },
    {
      target: 'pi seq < birpc',
      met: pi.seqCallUs.median < birpc.seqCallUs.median,
      actual: `${us(pi.seqCallUs.median)} vs ${us(birpc.seqCallUs.median)}`,
    },
    { target: 'pi 100-in-flight >= 0.5x raw-ws', met: throughputVsRaw >= 0.5, actual: times(throughputVsRaw) },
    {
      target: 'pi 100-in-flight > capnweb',
      met: pi.inFlightCallsPerSec.median > capnweb.inFlightCallsPerSec.median,
      actual: `${perSec(pi.inFlightCallsPerSec.median)} vs ${perSec(capnweb.inFlightCallsPerSec.median)}`,
    },
    ...(results.loaded === undefined ? [] : [busyNoWorseThanBirpc(results.loaded)]),
    ...(results.fanout === undefined ? [] : [fanoutWithin2x(results.fanout)]),
    ...(results.fanout1000 === undefined ? [] : [fanoutWithin2x(results.fanout1000)]),
    ...(results.slow?.piAtMore === undefined ? [] : [boundedSlowSubscriber(results.slow)]),
  ];
}

function busyNoWorseThanBirpc(loaded: NonNullable<BenchResults['loaded']>): TargetCheck {
  const raw = loaded.systems['raw-ws'].seqCallUs.median;
  const pi = ratio(loaded.systems.pi.seqCallUs.median, raw);
  const birpc = ratio(loaded.systems.birpc.seqCallUs.median, raw);
  return {
    target: `pi seq vs raw-ws with ${loaded.processes} busy loops <= birpc's`,
    met: pi <= birpc,
    actual: `${times(pi)} vs ${times(birpc)}`,
  };
}

function fanoutWithin2x(fanout: FanoutFigures): TargetCheck {
  const vsRaw = ratio(fanout.piUs.median, fanout.rawWsUs.median);
  return { target: `pi fan-out to ${fanout.clients} <= 2x raw broadcast`, met: vsRaw <= 2, actual: times(vsRaw) };
}

/**
 * A host that holds a paused subscriber's changes without bound grows by their bytes: twice the ~1 KB changes add
 * about 10 MB more, twice the growth. A bounded one (pi: ~2 MiB of socket buffer and backlog plus one change per
 * watched cell) grows the same whatever is published. The allowed growth at the larger count is therefore the
 * growth at the smaller one times 1.25 (heap after full collections and the allocator's slack still move by a
 * few percent) plus 512 KB (near zero, a ratio means nothing): both far below the ~10 MB a queue would add.
 */
export const SLOW_BOUND_FACTOR = 1.25;
export const SLOW_BOUND_SLACK_BYTES = 512 * 1024;

/** Whether the growth at more changes stays within the bound of the growth at fewer (a negative one counts as 0). */
export function slowGrowthBounded(growthAtFewer: number, growthAtMore: number): boolean {
  return growthAtMore <= SLOW_BOUND_FACTOR * Math.max(0, growthAtFewer) + SLOW_BOUND_SLACK_BYTES;
}

function boundedSlowSubscriber(slow: SlowSubscriberFigures): TargetCheck {
  const fewer = slow.systems.pi.memoryBytes.median;
  const more = slow.piAtMore?.memoryBytes.median ?? Number.NaN;
  const count = (changes: number) => changes.toLocaleString('en-US');
  const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;
  return {
    target:
      `pi memory with a paused subscriber is bounded: growth at ${count(slow.piAtMore?.changes ?? 0)} changes ` +
      `<= ${SLOW_BOUND_FACTOR}x growth at ${count(slow.changes)} + ${kb(SLOW_BOUND_SLACK_BYTES)}`,
    met: slowGrowthBounded(fewer, more),
    actual: `${kb(more)} vs ${kb(fewer)}`,
  };
}

export function times(value: number): string {
  return `${value.toFixed(2)}x`;
}
