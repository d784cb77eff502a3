import type { Spread } from '../stats';
import type { TuiScenario } from './tui-options';
import type { TerminalKind } from './terminal-process';

export interface KeypressFigures {
  readonly latencyMs: Spread;
  readonly worstMs: Spread;
  readonly bytesPerKey: Spread;
}

export interface AppendFigures {
  readonly ms: Spread;
  readonly bytes: Spread;
  readonly frames: Spread;
}

export interface StreamFigures {
  readonly lastDeltaToScreenMs: Spread;
  readonly burstMs: Spread;
  readonly frames: Spread;
  readonly bytes: Spread;
}

/** One way of starting pi, no coordinator running (cold) and with it running (warm): spawn → painted, → attached. */
export interface StartFigures {
  readonly coldPaintMs: Spread;
  readonly coldConnectedMs: Spread;
  readonly warmPaintMs: Spread;
  readonly warmConnectedMs: Spread;
  /** CPU time to the same moments (see `StartTimes`): the figures a loaded machine inflates least. */
  readonly coldPaintCpuMs: Spread;
  readonly coldConnectedCpuMs: Spread;
  readonly warmPaintCpuMs: Spread;
  readonly warmConnectedCpuMs: Spread;
}

/** Everything one `bench:tui` run measured; each figure is a spread over the run's rounds. */
export interface TuiBenchResults {
  readonly rounds: number;
  readonly durationSec: number;
  readonly scenarios: readonly TuiScenario[];
  /** One-minute load average before and after: these machines are shared. */
  readonly loadAverage: { readonly start: number; readonly end: number };
  readonly keypress?: {
    readonly keysPerRound: number;
    readonly smallEntries: number;
    readonly largeEntries: number;
    /** No transcript: the screen above the editor is blank, so the frame has less to lay out. */
    readonly empty: KeypressFigures;
    /** A full screen of transcript, at a small and a large length. */
    readonly small: KeypressFigures;
    readonly large: KeypressFigures;
    /** The small transcript while an answer streams a word every `streamPieceMs`. */
    readonly streamPieceMs: number;
    readonly streaming: KeypressFigures;
  };
  readonly stream?: {
    readonly deltas: number;
    readonly smallEntries: number;
    readonly largeEntries: number;
    /** The answer streams under a transcript of a small and a large length. */
    readonly small: StreamFigures;
    readonly large: StreamFigures;
  };
  readonly append?: {
    readonly smallEntries: number;
    readonly largeEntries: number;
    readonly host: { readonly small: AppendFigures; readonly large: AppendFigures };
    readonly session: { readonly small: AppendFigures; readonly large: AppendFigures };
  };
  readonly coldStart?: {
    readonly terminal: TerminalKind;
    readonly nodeMs: Spread;
    readonly tuiImportMs: Spread;
    readonly sessionImportMs: Spread;
    readonly sessionMs: Spread;
    readonly attachMs: Spread;
    /** `npm start` (npm, the bundle check, the bundled pi-tui) and the bundled `pi-tui --start` alone. */
    readonly npmStart: StartFigures;
    readonly piTuiStart: StartFigures;
  };
}

/** `{ name: median, nameMin, nameMax }`, rounded to 0.01. */
function flat(name: string, value: Spread): Record<string, number> {
  return { [name]: round(value.median), [`${name}Min`]: round(value.min), [`${name}Max`]: round(value.max) };
}

function flatAll<T extends { readonly [K in keyof T]: Spread }>(figures: T): Record<string, number> {
  return Object.assign({}, ...Object.entries(figures).map(([name, value]) => flat(name, value as Spread)));
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The flat shape of tools/bench/out/tui.json. */
export function tuiToJson(results: TuiBenchResults): Record<string, unknown> {
  const { keypress, stream, append, coldStart } = results;
  return {
    rounds: results.rounds,
    durationSec: round(results.durationSec),
    loadAverage: results.loadAverage,
    keypress: keypress && {
      keysPerRound: keypress.keysPerRound,
      empty: flatAll(keypress.empty),
      [`entries${keypress.smallEntries}`]: flatAll(keypress.small),
      [`entries${keypress.largeEntries}`]: flatAll(keypress.large),
      [`whileStreaming${keypress.smallEntries}`]: flatAll(keypress.streaming),
    },
    stream: stream && {
      deltas: stream.deltas,
      [`entries${stream.smallEntries}`]: flatAll(stream.small),
      [`entries${stream.largeEntries}`]: flatAll(stream.large),
    },
    append: append && {
      host: {
        [`entries${append.smallEntries}`]: flatAll(append.host.small),
        [`entries${append.largeEntries}`]: flatAll(append.host.large),
      },
      session: {
        [`entries${append.smallEntries}`]: flatAll(append.session.small),
        [`entries${append.largeEntries}`]: flatAll(append.session.large),
      },
    },
    coldStart:
      coldStart &&
      (({ terminal, npmStart, piTuiStart, ...figures }) => ({
        terminal,
        ...flatAll(figures),
        npmStart: flatAll(npmStart),
        piTuiStart: flatAll(piTuiStart),
      }))(coldStart),
  };
}
