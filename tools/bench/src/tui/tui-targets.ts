import { FRAME_MS } from '@pi/host-tui';
import type { Spread } from '../stats';
import { ratio } from '../stats';

/** A target of docs/TUI.md and issue 9, judged on medians: what it says, and whether this run met it. */
export interface TuiTargetCheck {
  readonly target: string;
  readonly met: boolean;
}

/** The keypress target: one frame at 60 Hz. */
export const KEYPRESS_TARGET_MS = 16;
/** "Without falling behind": the last delta is on screen within two frames of being sent. */
export const STREAM_LAG_TARGET_MS = 2 * FRAME_MS;
/** The bundled `pi-tui --start` attached to a new session, with no coordinator running (this benchmark's own). */
export const COLD_START_TARGET_MS = 1500;
/** Issue 21: the first painted screen after `npm start`, with no coordinator running and with one. */
export const COLD_PAINT_TARGET_MS = 1000;
export const WARM_PAINT_TARGET_MS = 300;
/**
 * "Does not grow with the length": the large transcript's median within 1.5× the small one's (medians of a few
 * milliseconds move by a third between rounds on a shared machine), or within one frame when the figure is a
 * wait for a frame.
 */
export const GROWTH_LIMIT = 1.5;
/**
 * The slack of a figure measured in tens of microseconds (one append painted in process): two such medians differ by
 * the timer's jitter alone, and a tenth of a millisecond is far below what growth with the length would cost.
 */
export const SUB_MILLISECOND_SLACK_MS = 0.1;

export const checks = {
  keypress: (latency: Spread): TuiTargetCheck => ({
    target: `≤ ${KEYPRESS_TARGET_MS} ms`,
    met: latency.median <= KEYPRESS_TARGET_MS,
  }),
  notGrowing: (small: Spread, large: Spread, slackMs = 0): TuiTargetCheck => ({
    target: `≤ ${GROWTH_LIMIT}× small${slackMs > 0 ? ` or +${slackMs} ms` : ''}`,
    met: ratio(large.median, small.median) <= GROWTH_LIMIT || large.median - small.median <= slackMs,
  }),
  streamLag: (lag: Spread): TuiTargetCheck => ({
    target: `≤ ${STREAM_LAG_TARGET_MS} ms (2 frames)`,
    met: lag.median <= STREAM_LAG_TARGET_MS,
  }),
  /**
   * At most one paint per frame interval of what was counted: from the first delta to the frame showing the last,
   * which is the burst and then the lag (plus the paint at its start: an idle screen paints at once).
   */
  framesPerBurst: (frames: Spread, burstMs: Spread, lagMs: Spread): TuiTargetCheck => ({
    target: `≤ 1 per ${FRAME_MS} ms, + 1`,
    met: frames.median <= (burstMs.median + lagMs.median) / FRAME_MS + 1,
  }),
  coldStart: (cold: Spread): TuiTargetCheck => atMost(cold, COLD_START_TARGET_MS),
  coldPaint: (paint: Spread): TuiTargetCheck => atMost(paint, COLD_PAINT_TARGET_MS),
  warmPaint: (paint: Spread): TuiTargetCheck => atMost(paint, WARM_PAINT_TARGET_MS),
};

function atMost(figure: Spread, limitMs: number): TuiTargetCheck {
  return { target: `≤ ${limitMs.toLocaleString('en-US')} ms`, met: figure.median <= limitMs };
}
