import { describe, expect, it } from 'vitest';
import { spread } from '../stats';
import { formatTuiReport, reportRows } from './tui-report';
import type { TuiBenchResults } from './tui-results';
import { tuiToJson } from './tui-results';

const same = (value: number) => spread([value]);
const appendFigures = (ms: number, bytes: number) => ({ ms: same(ms), bytes: same(bytes), frames: same(1) });

const stream = (frames: number, burstMs = 320) => ({
  lastDeltaToScreenMs: same(10),
  burstMs: same(burstMs),
  frames: same(frames),
  bytes: same(20_000),
});

/** Starts that paint at once: `warmPaintMs` with a coordinator running, 400 ms with none; attached after `coldMs`. */
const start = (coldMs: number, warmPaintMs: number) => ({
  coldPaintMs: same(400),
  coldConnectedMs: same(coldMs),
  warmPaintMs: same(warmPaintMs),
  warmConnectedMs: same(coldMs / 2),
  coldPaintCpuMs: same(250),
  coldConnectedCpuMs: same(1500),
  warmPaintCpuMs: same(240),
  warmConnectedCpuMs: same(700),
});

/** Made-up figures: the report is judged on what it is given, never on a measurement taken in a test. */
function results(coldMs: number, largeKeyMs: number): TuiBenchResults {
  return {
    rounds: 1,
    durationSec: 1,
    scenarios: ['keypress', 'stream', 'append', 'cold'],
    loadAverage: { start: 1, end: 1 },
    keypress: {
      keysPerRound: 40,
      smallEntries: 10,
      largeEntries: 5000,
      empty: { latencyMs: same(1.5), worstMs: same(5), bytesPerKey: same(71) },
      small: { latencyMs: same(2), worstMs: same(5), bytesPerKey: same(71) },
      large: { latencyMs: same(largeKeyMs), worstMs: same(5), bytesPerKey: same(71) },
      streamPieceMs: 10,
      streaming: { latencyMs: same(3), worstMs: same(9), bytesPerKey: same(90) },
    },
    stream: { deltas: 1000, smallEntries: 10, largeEntries: 5000, small: stream(20), large: stream(20) },
    append: {
      smallEntries: 10,
      largeEntries: 5000,
      host: { small: appendFigures(1, 220), large: appendFigures(1, 220) },
      session: { small: appendFigures(15, 230), large: appendFigures(30, 230) },
    },
    coldStart: {
      terminal: 'pty',
      nodeMs: same(50),
      tuiImportMs: same(600),
      sessionImportMs: same(400),
      sessionMs: same(900),
      attachMs: same(900),
      npmStart: start(coldMs + 400, 250),
      piTuiStart: start(coldMs, 150),
    },
  };
}

describe('the TUI benchmark report', () => {
  it('puts each judged figure next to its target and says which were met', () => {
    const report = formatTuiReport(results(2000, 3)).join('\n');
    expect(report).toMatch(/no coordinator: spawn → attached \(ms\)\s+2,000 \[2,000–2,000\]\s+≤ 1,500 ms\s+NOT MET/);
    expect(report).toMatch(/keypress → frame on screen, 5,000 entries \(ms\)\s+3\.00 \[3\.00–3\.00\]\s+≤ 16 ms\s+met/);
    expect(report).toContain(
      '17 of 18 targets met; not met: pi-tui --start (bundle), no coordinator: spawn → attached (ms)',
    );
  });

  it('judges a key typed while an answer streams against one frame, and writes it to the JSON', () => {
    const whileStreaming = (latencyMs: number) => {
      const figures = results(1000, 2);
      const keypress = figures.keypress && {
        ...figures.keypress,
        streaming: { latencyMs: same(latencyMs), worstMs: same(20), bytesPerKey: same(90) },
      };
      return { ...figures, keypress };
    };
    const row = (latencyMs: number) =>
      reportRows(whileStreaming(latencyMs)).find((line) => line.figure.includes('a word streaming every 10 ms'));
    expect(row(16)?.figure).toBe('keypress → frame on screen, 10 entries, a word streaming every 10 ms (ms)');
    expect(row(16)?.check?.met).toBe(true);
    expect(row(16.5)?.check?.met).toBe(false);
    const json = tuiToJson(whileStreaming(4)) as { keypress: Record<string, unknown> };
    expect(json.keypress.whileStreaming10).toEqual({
      latencyMs: 4,
      latencyMsMin: 4,
      latencyMsMax: 4,
      worstMs: 20,
      worstMsMin: 20,
      worstMsMax: 20,
      bytesPerKey: 90,
      bytesPerKeyMin: 90,
      bytesPerKeyMax: 90,
    });
  });

  it('judges the first painted screen of npm start and of pi-tui: ≤ 1 s with no coordinator, ≤ 0.3 s with one', () => {
    const paintChecks = (coldPaintMs: number, warmPaintMs: number) => {
      const figures = results(1000, 2);
      const starts = { ...start(1000, warmPaintMs), coldPaintMs: same(coldPaintMs) };
      const coldStart = figures.coldStart && { ...figures.coldStart, npmStart: starts, piTuiStart: starts };
      return reportRows({ ...figures, coldStart })
        .filter((row) => row.figure.includes('startup screen'))
        .map((row) => `${row.figure.replace(/:.*/, '')} ${row.check?.target} ${row.check?.met}`);
    };
    expect(paintChecks(1000, 300)).toEqual([
      'npm start, no coordinator ≤ 1,000 ms true',
      'npm start, coordinator running ≤ 300 ms true',
      'pi-tui --start (bundle), no coordinator ≤ 1,000 ms true',
      'pi-tui --start (bundle), coordinator running ≤ 300 ms true',
    ]);
    expect(paintChecks(1001, 301).map((line) => line.endsWith('false'))).toEqual([true, true, true, true]);
  });

  it('judges growth with the transcript against the small transcript, with one frame of slack for waits', () => {
    const growth = (keyMs: number) =>
      reportRows(results(1000, keyMs)).find((row) => row.figure.includes('5,000 vs 10 entries'))?.check?.met;
    expect(growth(2.9)).toBe(true);
    expect(growth(3.1)).toBe(false);
    const sessionAppend = reportRows(results(1000, 2)).find((row) => row.figure.includes('5,000 entries: prompt'));
    expect(sessionAppend?.check?.met).toBe(true);
  });

  it("judges one append painted in process with a tenth of a millisecond of slack, the timer's jitter", () => {
    const met = (smallMs: number, largeMs: number) => {
      const figures = results(1000, 2);
      const append = figures.append && {
        ...figures.append,
        host: { small: appendFigures(smallMs, 220), large: appendFigures(largeMs, 220) },
      };
      return reportRows({ ...figures, append }).find((row) =>
        row.figure.startsWith('one append, upsert + paint, 5,000'),
      )?.check?.met;
    };
    expect(met(0.04, 0.06)).toBe(true);
    expect(met(0.04, 0.14)).toBe(true);
    expect(met(0.04, 0.15)).toBe(false);
    expect(met(1, 1.5)).toBe(true);
    expect(met(1, 1.6)).toBe(false);
  });

  it('judges the frames of a stream over the burst and the lag after it, at most one per frame interval', () => {
    const met = (frames: number) => {
      const figures = results(1000, 2);
      const streamed = {
        deltas: 1000,
        smallEntries: 10,
        largeEntries: 5000,
        small: stream(15),
        large: stream(frames, 218),
      };
      return reportRows({ ...figures, stream: streamed })
        .filter((row) => row.figure.includes('frames painted'))
        .map((row) => row.check?.met);
    };
    expect(met(15)).toEqual([true, true]);
    expect(met(16)).toEqual([true, false]);
  });

  it('reports the CPU each start used until painted and until attached, judged by no target', () => {
    const rows = reportRows(results(1000, 2)).filter((row) => row.figure.includes('CPU until'));
    expect(rows.map((row) => [row.figure.trim(), row.value, row.check])).toEqual([
      ...['npm start', 'pi-tui'].flatMap(() => [
        ['CPU until painted, no coordinator (ms)', '250 [250–250]', undefined],
        ['CPU until attached, no coordinator, every process (ms)', '1,500 [1,500–1,500]', undefined],
        ['CPU until painted, coordinator running (ms)', '240 [240–240]', undefined],
        ['CPU until attached, coordinator running, every process (ms)', '700 [700–700]', undefined],
      ]),
    ]);
  });

  it('writes every figure as median, min and max', () => {
    const json = tuiToJson(results(1000, 2)) as { coldStart: Record<string, unknown> };
    expect(json.coldStart).toMatchObject({
      terminal: 'pty',
      attachMs: 900,
      attachMsMin: 900,
      attachMsMax: 900,
      piTuiStart: { coldPaintMs: 400, coldConnectedMs: 1000, warmPaintMs: 150, warmConnectedMs: 500 },
      npmStart: { coldPaintMs: 400, coldPaintMsMin: 400, coldPaintMsMax: 400, coldConnectedMs: 1400 },
    });
  });
});
