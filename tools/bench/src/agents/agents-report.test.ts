import { describe, expect, it } from 'vitest';
import { spread } from '../stats';
import type { AgentFigures } from './agent-run';
import { agentsRows, formatAgentsReport, judge, type AgentsResults } from './agents-report';

const MIB = 1024 * 1024;

function agentFigures(agent: 'pi' | 'upstream', scale: number): AgentFigures {
  return {
    agent,
    label: agent === 'pi' ? 'this project' : 'upstream 0.73.1',
    coldStartMs: 1000 * scale,
    readyMs: 1200 * scale,
    keypressIdleMs: spread([4 * scale, 5 * scale, 6 * scale]),
    keypressStreamingMs: spread([10 * scale, 20 * scale]),
    streamCpuPercent: spread([20 * scale]),
    streamMs: spread([5000]),
    roundTripMs: spread([100 * scale]),
    turns: 50,
    rssFirstTurnBytes: 100 * MIB * scale,
    rssLastTurnBytes: 110 * MIB * scale,
    rssLastTurnJustAfterBytes: 130 * MIB * scale,
    settledFirstTurnMs: 9000 * scale,
    settledLastTurnMs: 12_000 * scale,
    sharedOnceLastTurnBytes: 70 * MIB * scale,
    floorBytes: 40 * MIB * scale,
    processes: [
      {
        name: `${agent}.mjs`,
        rssBytes: 110 * MIB * scale,
        rssFirstTurnBytes: 100 * MIB * scale,
        streamCpuPercent: 20 * scale,
      },
    ],
  };
}

const results = (pi?: AgentFigures, upstream?: AgentFigures): AgentsResults => ({
  durationSec: 90,
  restMs: 60_000,
  streamWords: 1500,
  loadAverage: { start: 1.5, end: 2.25 },
  ...(pi && { pi }),
  ...(upstream && { upstream }),
});

describe('agentsRows', () => {
  it('gives each figure for both agents and this project / upstream as the ratio', () => {
    const rows = agentsRows(results(agentFigures('pi', 2), agentFigures('upstream', 1)));
    const row = (start: string) => rows.find((candidate) => candidate.figure.startsWith(start));
    expect(row('keypress → screen, idle')).toMatchObject({
      upstream: '5.0 [4.0–6.0]',
      pi: '10.0 [8.0–12.0]',
      ratio: '2.00x',
      target: { factor: 1, met: false },
    });
    expect(row('RSS after 50 turns, all processes, at rest: 60 s after the answer')).toMatchObject({
      upstream: '110.0',
      pi: '220.0',
      target: { met: false },
    });
    expect(row('  the same, just after the answer')).toMatchObject({ upstream: '130.0', pi: '260.0' });
    expect(row('  growth at rest, turn 1 → 50')).toMatchObject({ upstream: '10.0', pi: '20.0', ratio: '2.00x' });
    expect(row('  the same at rest, pages shared')).toMatchObject({ upstream: '70.0', pi: '140.0', ratio: '2.00x' });
    expect(row('  the same at rest, pages shared')?.target).toBeUndefined();
    expect(row('  floor: as many empty node processes')).toMatchObject({ upstream: '40.0 (1)', pi: '80.0 (1)' });
    expect(row('  RSS last moved')).toMatchObject({ upstream: '9 · 12', pi: '18 · 24', ratio: '' });
    expect(row('cold start')).toMatchObject({ ratio: '2.00x' });
    expect(row('keypress → screen, 1,500-word answer streaming')).toMatchObject({ pi: '30.0 [20.0–40.0]' });
    expect(row('cold start')?.target).toBeUndefined();
    expect(row('  RSS by process at rest')).toMatchObject({
      pi: 'pi.mjs 220.0 (+20.0)',
      upstream: 'upstream.mjs 110.0 (+10.0)',
    });
    expect(row('  CPU while streaming by process')).toMatchObject({ pi: 'pi.mjs 40.0', upstream: 'upstream.mjs 20.0' });
  });

  it('meets a target at or under its factor of upstream', () => {
    const rows = agentsRows(results(agentFigures('pi', 1), agentFigures('upstream', 1)));
    expect(rows.filter((row) => row.target !== undefined).every((row) => row.target?.met)).toBe(true);
  });

  it('leaves the other column and the ratio empty when one agent was not run', () => {
    const rows = agentsRows(results(agentFigures('pi', 1)));
    expect(rows[0]).toMatchObject({ upstream: '–', ratio: '' });
    expect(rows.every((row) => row.target === undefined)).toBe(true);
  });

  it('gives no ratio to a value upstream shrank or did not have', () => {
    const upstream = { ...agentFigures('upstream', 1), rssLastTurnBytes: 90 * MIB };
    const growth = agentsRows(results(agentFigures('pi', 1), upstream)).find((row) => row.figure.includes('growth'));
    expect(growth).toMatchObject({ upstream: '-10.0', pi: '10.0', ratio: '–', target: { met: false } });
  });
});

describe('judge', () => {
  it('allows up to the factor, and any shrink of a growth', () => {
    expect(judge(120, 100, 1.2).met).toBe(true);
    expect(judge(121, 100, 1.2).met).toBe(false);
    expect(judge(-5, -10, 1).met).toBe(true);
  });
});

describe('formatAgentsReport', () => {
  it('lays out a header with both agents, a row per figure and the load average', () => {
    const lines = formatAgentsReport(results(agentFigures('pi', 2), agentFigures('upstream', 1)));
    expect(lines[0]).toMatch(/upstream 0\.73\.1\s+this project\s+ratio\s+target/);
    expect(lines.some((line) => /^CPU while streaming.*20 \[20–20\].*40 \[40–40\].*2\.00x.*MISSED/.test(line))).toBe(
      true,
    );
    expect(lines.at(-1)).toContain('load average 1.50 → 2.25');
  });
});
