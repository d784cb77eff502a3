import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { spread } from '../stats';
import { measureHostAppend, measureSessionAppend, type AppendRound } from './append-bench';
import { measureColdStart, type ColdStartRound, type StartPair } from './cold-start-bench';
import {
  KEYS_PER_ROUND,
  STREAM_PIECE_MS,
  measureKeypresses,
  measureKeypressesWhileStreaming,
  type KeypressRound,
} from './keypress-bench';
import { STREAM_DELTAS, measureStream, type StreamRound } from './stream-bench';
import { loadPty, type TerminalKind } from './terminal-process';
import type { TuiBenchOptions } from './tui-options';
import type { AppendFigures, KeypressFigures, StartFigures, StreamFigures, TuiBenchResults } from './tui-results';

export const LARGE_TRANSCRIPT = 5000;
export const SMALL_TRANSCRIPT = 10;

/**
 * One unrecorded warm-up round (JIT, tsx's transform cache), then `rounds` rounds of every chosen scenario; within
 * a round the sizes of a scenario take turns going first, so none always runs on a warmer machine.
 */
export async function runTuiBench(options: TuiBenchOptions, log: (line: string) => void): Promise<TuiBenchResults> {
  const started = performance.now();
  const loadStart = loadavg()[0] ?? 0;
  const terminal: TerminalKind =
    options.terminal !== 'auto' ? options.terminal : (await loadPty()) === undefined ? 'pipe' : 'pty';
  const runs = (name: TuiBenchOptions['scenarios'][number]) => options.scenarios.includes(name);
  const keys = {
    empty: [] as KeypressRound[],
    small: [] as KeypressRound[],
    large: [] as KeypressRound[],
    streaming: [] as KeypressRound[],
  };
  const streams = { small: [] as StreamRound[], large: [] as StreamRound[] };
  const host = { small: [] as AppendRound[], large: [] as AppendRound[] };
  const session = { small: [] as AppendRound[], large: [] as AppendRound[] };
  const cold: ColdStartRound[] = [];

  for (let round = -1; round < options.rounds; round += 1) {
    const record = round >= 0;
    const swap = round % 2 !== 0;
    const label = record ? `round ${round + 1}/${options.rounds}` : 'warm-up';
    if (runs('keypress')) {
      for (const size of rotate(['empty', 'small', 'large', 'streaming'] as const, Math.max(0, round))) {
        const result =
          size === 'streaming'
            ? await measureKeypressesWhileStreaming(SMALL_TRANSCRIPT)
            : await measureKeypresses({ empty: 0, small: SMALL_TRANSCRIPT, large: LARGE_TRANSCRIPT }[size]);
        if (record) keys[size].push(result);
      }
      log(`keypress: ${label} done`);
    }
    if (runs('stream')) {
      for (const size of swap ? (['large', 'small'] as const) : (['small', 'large'] as const)) {
        const result = await measureStream(size === 'large' ? LARGE_TRANSCRIPT : SMALL_TRANSCRIPT);
        if (record) streams[size].push(result);
      }
      log(`stream: ${label} done`);
    }
    if (runs('append')) {
      for (const size of swap ? (['large', 'small'] as const) : (['small', 'large'] as const)) {
        const entries = size === 'large' ? LARGE_TRANSCRIPT : SMALL_TRANSCRIPT;
        const direct = await measureHostAppend(entries);
        const through = await measureSessionAppend(entries);
        if (record) host[size].push(direct);
        if (record) session[size].push(through);
      }
      log(`append: ${label} done`);
    }
    if (runs('cold')) {
      const result = await measureColdStart(terminal, Math.max(0, round));
      if (record) cold.push(result);
      log(`cold start (${terminal}): ${label} done`);
    }
  }

  const of = <T>(rounds: readonly T[], pick: (round: T) => number) => spread(rounds.map(pick));
  const keypressFigures = (rounds: KeypressRound[]): KeypressFigures => ({
    latencyMs: of(rounds, (r) => r.latencyMs),
    worstMs: of(rounds, (r) => r.worstMs),
    bytesPerKey: of(rounds, (r) => r.bytesPerKey),
  });
  const streamFigures = (rounds: StreamRound[]): StreamFigures => ({
    lastDeltaToScreenMs: of(rounds, (r) => r.lastDeltaToScreenMs),
    burstMs: of(rounds, (r) => r.burstMs),
    frames: of(rounds, (r) => r.frames),
    bytes: of(rounds, (r) => r.bytes),
  });
  const startFigures = (pairs: StartPair[]): StartFigures => ({
    coldPaintMs: of(pairs, (p) => p.cold.paintMs),
    coldConnectedMs: of(pairs, (p) => p.cold.connectedMs),
    warmPaintMs: of(pairs, (p) => p.warm.paintMs),
    warmConnectedMs: of(pairs, (p) => p.warm.connectedMs),
    coldPaintCpuMs: of(pairs, (p) => p.cold.paintCpuMs),
    coldConnectedCpuMs: of(pairs, (p) => p.cold.connectedCpuMs),
    warmPaintCpuMs: of(pairs, (p) => p.warm.paintCpuMs),
    warmConnectedCpuMs: of(pairs, (p) => p.warm.connectedCpuMs),
  });
  const appendFigures = (rounds: AppendRound[]): AppendFigures => ({
    ms: of(rounds, (r) => r.ms),
    bytes: of(rounds, (r) => r.bytes),
    frames: of(rounds, (r) => r.frames),
  });
  return {
    rounds: options.rounds,
    durationSec: (performance.now() - started) / 1000,
    scenarios: options.scenarios,
    loadAverage: { start: loadStart, end: loadavg()[0] ?? 0 },
    keypress: runs('keypress')
      ? {
          keysPerRound: KEYS_PER_ROUND,
          smallEntries: SMALL_TRANSCRIPT,
          largeEntries: LARGE_TRANSCRIPT,
          empty: keypressFigures(keys.empty),
          small: keypressFigures(keys.small),
          large: keypressFigures(keys.large),
          streamPieceMs: STREAM_PIECE_MS,
          streaming: keypressFigures(keys.streaming),
        }
      : undefined,
    stream: runs('stream')
      ? {
          deltas: STREAM_DELTAS,
          smallEntries: SMALL_TRANSCRIPT,
          largeEntries: LARGE_TRANSCRIPT,
          small: streamFigures(streams.small),
          large: streamFigures(streams.large),
        }
      : undefined,
    append: runs('append')
      ? {
          smallEntries: SMALL_TRANSCRIPT,
          largeEntries: LARGE_TRANSCRIPT,
          host: { small: appendFigures(host.small), large: appendFigures(host.large) },
          session: { small: appendFigures(session.small), large: appendFigures(session.large) },
        }
      : undefined,
    coldStart: runs('cold')
      ? {
          terminal,
          nodeMs: of(cold, (r) => r.nodeMs),
          tuiImportMs: of(cold, (r) => r.tuiImportMs),
          sessionImportMs: of(cold, (r) => r.sessionImportMs),
          sessionMs: of(cold, (r) => r.sessionMs),
          attachMs: of(cold, (r) => r.attachMs),
          npmStart: startFigures(cold.map((r) => r.npmStart)),
          piTuiStart: startFigures(cold.map((r) => r.piTuiStart)),
        }
      : undefined,
  };
}

/** `items` starting at `offset` (mod length), wrapping around. */
function rotate<T>(items: readonly T[], offset: number): T[] {
  const start = offset % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}
