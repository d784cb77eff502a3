import { describe, expect, it } from 'vitest';
import { parseInvoluntarySwitches, parseSchedstat, readThreadSchedule, schedulePerCall } from './thread-schedule';

describe('thread schedule', () => {
  it('reads a schedstat line: ns on a CPU, ns waiting for one, slices', () => {
    expect(parseSchedstat('510573 3262700 3\n')).toEqual({ runNs: 510573, waitNs: 3262700, slices: 3 });
  });

  it('refuses a line that is not three counts', () => {
    for (const text of ['', '1 2', '1 2 3 4', '1 x 3', '-1 2 3']) expect(parseSchedstat(text)).toBeUndefined();
  });

  it('reads the involuntary switches of a status file, and nothing from one without them', () => {
    const status = 'Name:\tnode\nvoluntary_ctxt_switches:\t120\nnonvoluntary_ctxt_switches:\t7\n';
    expect(parseInvoluntarySwitches(status)).toBe(7);
    expect(parseInvoluntarySwitches('Name:\tnode\nvoluntary_ctxt_switches:\t120\n')).toBeUndefined();
  });

  it("reads this process's main thread where /proc tells, and nothing for a process that is not there", () => {
    const schedule = readThreadSchedule(process.pid);
    if (process.platform === 'linux') {
      expect(schedule?.runNs).toBeGreaterThan(0);
      expect(schedule?.slices).toBeGreaterThan(0);
    } else {
      expect(schedule).toBeUndefined();
    }
    expect(readThreadSchedule(2 ** 22 + 1)).toBeUndefined();
  });

  it('divides the difference of two readings by the calls made between them', () => {
    const before = { runNs: 1_000_000, waitNs: 500_000, slices: 10, involuntarySwitches: 2 };
    const after = { runNs: 5_000_000, waitNs: 2_500_000, slices: 110, involuntarySwitches: 52 };
    expect(schedulePerCall(before, after, 100)).toEqual({ runUs: 40, waitUs: 20, slices: 1, involuntarySwitches: 0.5 });
    expect(schedulePerCall(undefined, after, 100)).toBeUndefined();
    expect(schedulePerCall(before, after, 0)).toBeUndefined();
  });
});
