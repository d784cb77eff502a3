import type { BenchResults } from './results';
import { ratio } from './stats';

export interface TargetCheck {
  readonly target: string;
  readonly met: boolean;
  /** The compared medians, e.g. "1.8x". */
  readonly actual: string;
}

/** The brief's performance targets for pi, judged on medians. */
export function checkTargets(results: BenchResults): TargetCheck[] {
  const pi = results.systems.pi;
  const raw = results.systems['raw-ws'];
  const seqVsRaw = ratio(pi.seqCallUs.median, raw.seqCallUs.median);
  const throughputVsRaw = ratio(pi.inFlightCallsPerSec.median, raw.inFlightCallsPerSec.median);
  const fanoutVsRaw = ratio(results.fanout.piUs.median, results.fanout.rawWsUs.median);
  const us = (value: number) => `${Math.round(value)} µs`;
  return [
    { target: 'pi seq <= 3x raw-ws', met: seqVsRaw <= 3, actual: times(seqVsRaw) },
    {
      target: 'pi seq < capnweb',
      met: pi.seqCallUs.median < results.systems.capnweb.seqCallUs.median,
      actual: `${us(pi.seqCallUs.median)} vs ${us(results.systems.capnweb.seqCallUs.median)}`,
    },
    {
      target: 'pi seq < birpc',
      met: pi.seqCallUs.median < results.systems.birpc.seqCallUs.median,
      actual: `${us(pi.seqCallUs.median)} vs ${us(results.systems.birpc.seqCallUs.median)}`,
    },
    { target: 'pi 100-in-flight >= 0.5x raw-ws', met: throughputVsRaw >= 0.5, actual: times(throughputVsRaw) },
    { target: 'pi fan-out <= 3x raw broadcast', met: fanoutVsRaw <= 3, actual: times(fanoutVsRaw) },
    ...(results.fanout1000 === undefined ? [] : [largeFanout(results.fanout1000)]),
  ];
}

function largeFanout(fanout: NonNullable<BenchResults['fanout1000']>): TargetCheck {
  const vsRaw = ratio(fanout.piUs.median, fanout.rawWsUs.median);
  return { target: `pi fan-out to ${fanout.clients} <= 2x raw broadcast`, met: vsRaw <= 2, actual: times(vsRaw) };
}

export function times(value: number): string {
  return `${value.toFixed(2)}x`;
}
