import { ratio, type Spread } from '../stats';
import { formatSpread, formatTable } from '../text-table';
import { times } from '../targets';
import type { AgentFigures, ProcessFigures } from './agent-run';

/** Everything one `bench:agents` run measured. */
export interface AgentsResults {
  readonly durationSec: number;
  /** How long each agent was left alone before its memory was read (`--rest`). */
  readonly restMs: number;
  /** Words in each long answer (1,500 is ~2,000 tokens). */
  readonly streamWords: number;
  /** One-minute load average before and after: these machines are shared. */
  readonly loadAverage: { readonly start: number; readonly end: number };
  readonly pi?: AgentFigures;
  readonly upstream?: AgentFigures;
}

/** Issue 21's bar for one figure: this project's value at most `factor` times upstream's. */
export interface AgentsTarget {
  readonly factor: number;
  readonly met: boolean;
}

/** One line of the table: the figure for each agent, this project's / upstream's, and the target if it has one. */
export interface AgentsRow {
  readonly figure: string;
  readonly upstream: string;
  readonly pi: string;
  readonly ratio: string;
  readonly target?: AgentsTarget;
}

interface Figure {
  readonly figure: string;
  readonly value: (figures: AgentFigures) => number;
  readonly format: (figures: AgentFigures) => string;
  /** At most this many times upstream's value, per issue 21. */
  readonly factor?: number;
  /** A figure whose ratio means nothing (when a process settled). */
  readonly noRatio?: true;
}

const MIB = 1024 * 1024;
const ms = (value: number) => value.toFixed(0);
const spreadMs = (value: Spread) => formatSpread(value, 1);
const mib = (bytes: number) => (bytes / MIB).toFixed(1);
const growth = (figures: AgentFigures) => figures.rssLastTurnBytes - figures.rssFirstTurnBytes;
const seconds = (value: number) => (value / 1000).toFixed(0);

export function figures(turns: number, streamWords: number, restMs: number): readonly Figure[] {
  const rest = `at rest: ${seconds(restMs)} s after the answer`;
  return [
    {
      figure: 'cold start: spawn → editor painted (ms)',
      value: (f) => f.coldStartMs,
      format: (f) => ms(f.coldStartMs),
    },
    { figure: '  spawn → ready (pi: connected) (ms)', value: (f) => f.readyMs, format: (f) => ms(f.readyMs) },
    {
      figure: 'keypress → screen, idle (ms)',
      value: (f) => f.keypressIdleMs.median,
      format: (f) => spreadMs(f.keypressIdleMs),
      factor: 1,
    },
    {
      figure: `keypress → screen, ${streamWords.toLocaleString('en-US')}-word answer streaming (ms)`,
      value: (f) => f.keypressStreamingMs.median,
      format: (f) => spreadMs(f.keypressStreamingMs),
      factor: 1,
    },
    {
      figure: 'CPU while streaming, all processes (% of a core)',
      value: (f) => f.streamCpuPercent.median,
      format: (f) => formatSpread(f.streamCpuPercent, 0),
      factor: 1,
    },
    {
      figure: '  first piece → last token painted (ms)',
      value: (f) => f.streamMs.median,
      format: (f) => formatSpread(f.streamMs, 0),
    },
    {
      figure: 'prompt round trip: Enter → last token painted (ms)',
      value: (f) => f.roundTripMs.median,
      format: (f) => spreadMs(f.roundTripMs),
    },
    {
      figure: `RSS after turn 1, all processes, ${rest} (MiB)`,
      value: (f) => f.rssFirstTurnBytes,
      format: (f) => mib(f.rssFirstTurnBytes),
    },
    {
      figure: `RSS after ${turns} turns, all processes, ${rest} (MiB)`,
      value: (f) => f.rssLastTurnBytes,
      format: (f) => mib(f.rssLastTurnBytes),
      factor: 1.2,
    },
    {
      figure: '  the same, just after the answer (MiB)',
      value: (f) => f.rssLastTurnJustAfterBytes,
      format: (f) => mib(f.rssLastTurnJustAfterBytes),
    },
    {
      // Summed RSS counts the node binary once per process: three times for pi, once for upstream.
      figure: '  the same at rest, pages shared between processes once (MiB)',
      value: (f) => f.sharedOnceLastTurnBytes,
      format: (f) => mib(f.sharedOnceLastTurnBytes),
    },
    {
      figure: '  floor: as many empty node processes (MiB)',
      value: (f) => f.floorBytes,
      format: (f) => `${mib(f.floorBytes)} (${f.processes.length})`,
    },
    { figure: `  growth at rest, turn 1 → ${turns} (MiB)`, value: growth, format: (f) => mib(growth(f)), factor: 1 },
    {
      figure: `  RSS last moved ≥ 2 MiB in the rest after turn 1 · ${turns} (s)`,
      value: (f) => f.settledLastTurnMs,
      format: (f) => `${seconds(f.settledFirstTurnMs)} · ${seconds(f.settledLastTurnMs)}`,
      noRatio: true,
    },
  ];
}

export function agentsRows(results: AgentsResults): AgentsRow[] {
  const { pi, upstream } = results;
  const turns = pi?.turns ?? upstream?.turns ?? 0;
  const rows: AgentsRow[] = figures(turns, results.streamWords, results.restMs).map((figure) => {
    const row = {
      figure: figure.figure,
      upstream: upstream === undefined ? '–' : figure.format(upstream),
      pi: pi === undefined ? '–' : figure.format(pi),
    };
    if (pi === undefined || upstream === undefined || figure.noRatio) return { ...row, ratio: '' };
    // A ratio to a shrink (upstream's RSS growth can be negative, a collection between the samples) means nothing.
    const value = figure.value(upstream) > 0 ? ratio(figure.value(pi), figure.value(upstream)) : Number.NaN;
    const target =
      figure.factor === undefined ? undefined : judge(figure.value(pi), figure.value(upstream), figure.factor);
    return { ...row, ratio: Number.isFinite(value) ? times(value) : '–', ...(target && { target }) };
  });
  const byProcess = (f: AgentFigures | undefined, value: (process: ProcessFigures) => string) =>
    f === undefined ? '–' : f.processes.map((process) => `${process.name} ${value(process)}`).join(' · ');
  const grew = (process: ProcessFigures) => process.rssBytes - process.rssFirstTurnBytes;
  const rss = (process: ProcessFigures) =>
    `${mib(process.rssBytes)}${Number.isNaN(grew(process)) ? '' : ` (${grew(process) < 0 ? '' : '+'}${mib(grew(process))})`}`;
  const cpu = (process: ProcessFigures) =>
    Number.isNaN(process.streamCpuPercent) ? '–' : process.streamCpuPercent.toFixed(1);
  rows.push(
    {
      figure: '  RSS by process at rest at the end (MiB; growth from turn 1)',
      upstream: byProcess(upstream, rss),
      pi: byProcess(pi, rss),
      ratio: '',
    },
    {
      figure: '  CPU while streaming by process (% of a core)',
      upstream: byProcess(upstream, cpu),
      pi: byProcess(pi, cpu),
      ratio: '',
    },
  );
  return rows;
}

/** Met when this project's value is at most `factor` times upstream's (growth: a shrink always meets it). */
export function judge(pi: number, upstream: number, factor: number): AgentsTarget {
  return { factor, met: pi <= upstream * factor || pi <= 0 };
}

export function formatAgentsReport(results: AgentsResults): string[] {
  const rows = agentsRows(results).map((row) => [
    row.figure,
    row.upstream,
    row.pi,
    row.ratio,
    row.target === undefined ? '' : `${row.target.met ? 'met' : 'MISSED'} (≤ ${times(row.target.factor)})`,
  ]);
  const label = (f: AgentFigures | undefined, fallback: string) => f?.label ?? fallback;
  return [
    ...formatTable(
      ['', label(results.upstream, 'upstream'), label(results.pi, 'this project'), 'ratio', 'target'],
      rows,
    ),
    '',
    `${results.durationSec.toFixed(0)} s; load average ${results.loadAverage.start.toFixed(2)} → ${results.loadAverage.end.toFixed(2)}` +
      ' (medians [min–max] over the keys, answers and turns of one run)',
  ];
}
