import { FRAME_MS } from '@pi/host-tui';
import type { Spread } from '../stats';
import { ratio } from '../stats';
import { formatSpread, formatTable } from '../text-table';
import { times } from '../targets';
import { APPENDS_PER_ROUND, PROMPTS_PER_ROUND } from './append-bench';
import { SUB_MILLISECOND_SLACK_MS, checks, type TuiTargetCheck } from './tui-targets';
import type { KeypressFigures, StartFigures, TuiBenchResults } from './tui-results';

/** One line of the table: a figure, its median [min–max], and the target it is judged against, if any. */
export interface ReportRow {
  readonly figure: string;
  readonly value: string;
  readonly check?: TuiTargetCheck;
}

const ms = (value: Spread, decimals = 1) => formatSpread(value, decimals);
const count = (value: Spread) => formatSpread(value, 0);
const kb = (value: Spread) =>
  formatSpread({ median: value.median / 1024, min: value.min / 1024, max: value.max / 1024 }, 1);
const n = (value: number) => value.toLocaleString('en-US');

export function reportRows(results: TuiBenchResults): ReportRow[] {
  const rows: ReportRow[] = [];
  const { keypress, stream, append, coldStart } = results;
  if (keypress !== undefined) {
    const sizes = [
      ['empty transcript', keypress.empty],
      [`${n(keypress.smallEntries)} entries`, keypress.small],
      [`${n(keypress.largeEntries)} entries`, keypress.large],
      [`${n(keypress.smallEntries)} entries, a word streaming every ${keypress.streamPieceMs} ms`, keypress.streaming],
    ] as const;
    const each = (pick: (figures: KeypressFigures) => string) => sizes.map(([, figures]) => pick(figures)).join(' / ');
    const { small, large } = keypress;
    rows.push(
      ...sizes.map(([size, figures]) => ({
        figure: `keypress → frame on screen, ${size} (ms)`,
        value: ms(figures.latencyMs, 2),
        check: checks.keypress(figures.latencyMs),
      })),
      {
        figure: `  ${n(keypress.largeEntries)} vs ${n(keypress.smallEntries)} entries`,
        value: times(ratio(large.latencyMs.median, small.latencyMs.median)),
        check: checks.notGrowing(small.latencyMs, large.latencyMs),
      },
      { figure: '  slowest key of a round, by size (ms)', value: each((figures) => figures.worstMs.median.toFixed(1)) },
      { figure: '  bytes written per key, by size', value: each((figures) => figures.bytesPerKey.median.toFixed(0)) },
    );
  }
  if (stream !== undefined) {
    const sizes = [
      [stream.smallEntries, stream.small],
      [stream.largeEntries, stream.large],
    ] as const;
    for (const [entries, figures] of sizes) {
      rows.push(
        {
          figure: `${n(stream.deltas)}-delta stream, ${n(entries)} entries: last delta sent → on screen (ms)`,
          value: ms(figures.lastDeltaToScreenMs),
          check: checks.streamLag(figures.lastDeltaToScreenMs),
        },
        { figure: '  burst, first → last delta sent (ms)', value: ms(figures.burstMs, 0) },
        {
          figure: '  frames painted, first delta sent → last on screen',
          value: count(figures.frames),
          check: checks.framesPerBurst(figures.frames, figures.burstMs, figures.lastDeltaToScreenMs),
        },
        { figure: '  KB written during the burst', value: kb(figures.bytes) },
      );
    }
    rows.push({
      figure: `  last delta → screen, ${n(stream.largeEntries)} vs ${n(stream.smallEntries)} entries`,
      value: times(ratio(stream.large.lastDeltaToScreenMs.median, stream.small.lastDeltaToScreenMs.median)),
      check: checks.notGrowing(stream.small.lastDeltaToScreenMs, stream.large.lastDeltaToScreenMs, FRAME_MS),
    });
  }
  if (append !== undefined) {
    const { host, session } = append;
    const [small, big] = [n(append.smallEntries), n(append.largeEntries)];
    rows.push(
      { figure: `one append, upsert + paint, ${small} entries (ms)`, value: ms(host.small.ms, 2) },
      {
        figure: `one append, upsert + paint, ${big} entries (ms)`,
        value: ms(host.large.ms, 2),
        check: checks.notGrowing(host.small.ms, host.large.ms, SUB_MILLISECOND_SLACK_MS),
      },
      { figure: `  bytes of that frame, ${small} entries`, value: count(host.small.bytes) },
      {
        figure: `  bytes of that frame, ${big} entries`,
        value: count(host.large.bytes),
        check: checks.notGrowing(host.small.bytes, host.large.bytes),
      },
      { figure: `one append via the session, ${small} entries: prompt → on screen (ms)`, value: ms(session.small.ms) },
      {
        figure: `one append via the session, ${big} entries: prompt → on screen (ms)`,
        value: ms(session.large.ms),
        check: checks.notGrowing(session.small.ms, session.large.ms, FRAME_MS),
      },
      {
        figure: `  frames / bytes until then, ${small} entries`,
        value: `${count(session.small.frames)} / ${count(session.small.bytes)}`,
      },
      {
        figure: `  frames / bytes until then, ${big} entries`,
        value: `${count(session.large.frames)} / ${count(session.large.bytes)}`,
      },
    );
  }
  if (coldStart !== undefined) {
    rows.push(
      { figure: 'cold start: node -e, spawn → first output (ms)', value: ms(coldStart.nodeMs, 0) },
      { figure: "  import of pi-tui's run-tui module under tsx (ms)", value: ms(coldStart.tuiImportMs, 0) },
      { figure: "  import of pi-session's entry module under tsx (ms)", value: ms(coldStart.sessionImportMs, 0) },
      { figure: '  pi-session alone, spawn → "listening" (ms)', value: ms(coldStart.sessionMs, 0) },
      { figure: '  pi-tui attaching to it, spawn → first frame (ms)', value: ms(coldStart.attachMs, 0) },
      ...startRows('npm start', coldStart.npmStart),
      ...startRows('pi-tui --start (bundle)', coldStart.piTuiStart, checks.coldStart),
    );
  }
  return rows;
}

/** A way of starting pi: spawn → startup screen and → attached, with no coordinator running and with one. */
function startRows(name: string, figures: StartFigures, attached?: (figure: Spread) => TuiTargetCheck): ReportRow[] {
  return [
    {
      figure: `${name}, no coordinator: spawn → startup screen (ms)`,
      value: ms(figures.coldPaintMs, 0),
      check: checks.coldPaint(figures.coldPaintMs),
    },
    {
      figure: `${name}, no coordinator: spawn → attached (ms)`,
      value: ms(figures.coldConnectedMs, 0),
      ...(attached === undefined ? {} : { check: attached(figures.coldConnectedMs) }),
    },
    {
      figure: `${name}, coordinator running: spawn → startup screen (ms)`,
      value: ms(figures.warmPaintMs, 0),
      check: checks.warmPaint(figures.warmPaintMs),
    },
    { figure: `${name}, coordinator running: spawn → attached (ms)`, value: ms(figures.warmConnectedMs, 0) },
    // CPU rows do not name the startup screen: the paint targets are judged on the rows that do.
    { figure: '  CPU until painted, no coordinator (ms)', value: ms(figures.coldPaintCpuMs, 0) },
    { figure: '  CPU until attached, no coordinator, every process (ms)', value: ms(figures.coldConnectedCpuMs, 0) },
    { figure: '  CPU until painted, coordinator running (ms)', value: ms(figures.warmPaintCpuMs, 0) },
    {
      figure: '  CPU until attached, coordinator running, every process (ms)',
      value: ms(figures.warmConnectedCpuMs, 0),
    },
  ];
}

/** The printed summary: what ran and how, the table, then how many targets were met. */
export function formatTuiReport(results: TuiBenchResults): string[] {
  const rows = reportRows(results);
  const judged = rows.filter((row) => row.check !== undefined);
  const missed = judged.filter((row) => row.check?.met === false);
  const load = results.loadAverage;
  return [
    `TUI benchmark: ${results.rounds} interleaved rounds after a warm-up, medians [min–max of round medians], ` +
      `${results.durationSec.toFixed(0)} s, load average ${load.start.toFixed(1)} → ${load.end.toFixed(1)}`,
    `in-process: session host + TUI host (chat facets) over a WebSocket, 80×24 virtual terminal; ` +
      `${results.keypress?.keysPerRound ?? 0} keys, ${APPENDS_PER_ROUND} host appends, ${PROMPTS_PER_ROUND} prompts per round and size` +
      (results.coldStart === undefined ? '' : `; cold start on a 100×30 ${results.coldStart.terminal}`),
    '',
    ...formatTable(
      ['figure', 'median [min–max]', 'target', ''],
      rows.map((row) => [
        row.figure,
        row.value,
        row.check?.target ?? '',
        row.check === undefined ? '' : row.check.met ? 'met' : 'NOT MET',
      ]),
    ),
    '',
    missed.length === 0
      ? `all ${judged.length} targets met`
      : `${judged.length - missed.length} of ${judged.length} targets met; not met: ${missed.map((row) => row.figure.trim()).join('; ')}`,
  ];
}
