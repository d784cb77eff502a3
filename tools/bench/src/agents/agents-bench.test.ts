import { beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from './agent-run';
import { MARKER_VARIABLE } from './agents';
import { parseAgentsOptions } from './agents-options';
import { startAnswerServer } from './answer-server';
import { processesWhere } from './process-stats';
import { buildPiBundles, runAgentsBench } from './run-agents-bench';

// End to end against this project only: the bundled pi-tui --start (coordinator, session) in a pty. The upstream
// agent is left to `npm run bench:agents` itself: the harness is the same for both, and one agent keeps this short.
// Those of this test: a bench someone runs beside it has processes of its own.
let others: number[] = [];
const benchProcesses = async () =>
  (await processesWhere((environment) => environment.some((entry) => entry.startsWith(`${MARKER_VARIABLE}=`)))).filter(
    (pid) => !others.includes(pid),
  );

beforeAll(async () => {
  buildPiBundles();
  others = await benchProcesses();
}, 300_000);

describe('bench:agents against this project', () => {
  it('measures every figure of a quick run and leaves no process running', async () => {
    const running: number[][] = [];
    const options = parseAgentsOptions(['--quick', '--only=pi']);
    const results = await runAgentsBench(options, (line) => {
      if (line.includes('keys typed')) void benchProcesses().then((pids) => running.push(pids));
    });

    const pi = results.pi;
    expect(results.upstream).toBeUndefined();
    expect(pi?.turns).toBe(options.turns);
    expect(pi?.keypressIdleMs.rounds).toBe(options.keys);
    expect(pi?.keypressStreamingMs.rounds).toBeGreaterThan(0);
    expect(pi?.roundTripMs.rounds).toBe(options.turns - 2 * options.streams);
    expect(pi?.coldStartMs).toBeGreaterThan(0);
    expect(pi?.keypressIdleMs.min).toBeGreaterThan(0);
    expect(pi?.rssLastTurnBytes).toBeGreaterThan(0);
    expect(pi?.rssLastTurnJustAfterBytes).toBeGreaterThan(0);
    // Three empty node processes hold less than pi's three.
    expect(pi?.floorBytes).toBeGreaterThan(0);
    expect(pi?.floorBytes).toBeLessThan(pi?.rssLastTurnBytes ?? 0);
    // The three processes map one node binary: counted once, their memory is less than their summed RSS.
    expect(pi?.sharedOnceLastTurnBytes).toBeGreaterThan(0);
    expect(pi?.sharedOnceLastTurnBytes).toBeLessThan(pi?.rssLastTurnBytes ?? 0);
    // The TUI, the coordinator and the session were measured, and stopped after.
    expect(pi?.processes.map((process) => process.name).sort()).toEqual([
      'pi-coordinator.mjs',
      'pi-session.mjs',
      'pi-tui.mjs',
    ]);
    expect(running.flat()).toHaveLength(3);
    expect(await benchProcesses()).toEqual([]);
  }, 300_000);

  it('stops every process it started when a run fails', async () => {
    // A real answer server whose first long answer fails the run at once: after the processes started and answered.
    const options = parseAgentsOptions(['--quick']);
    const answers = await startAnswerServer(options.shape);
    const failing = {
      ...answers,
      nextStreamStart: () => Promise.reject(new Error('the bench fails on purpose')),
    };
    const running: number[][] = [];
    try {
      await expect(
        runAgent('pi', failing, options, (line) => {
          if (line.includes('keys typed')) void benchProcesses().then((pids) => running.push(pids));
        }),
      ).rejects.toThrow('the bench fails on purpose');
    } finally {
      await answers.close();
    }
    expect(running.flat()).toHaveLength(3);
    expect(await benchProcesses()).toEqual([]);
  }, 300_000);
});
