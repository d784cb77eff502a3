import type { LatencySummary } from '../figures';

/** What a bystander did over a window of time (or its whole life). */
export interface BystanderStats {
  readonly calls: number;
  readonly failures: number;
  /** The first few failures, as `code: message`. */
  readonly failureSamples: readonly string[];
  /** Times its connection left `connected`. */
  readonly drops: number;
  readonly latency: LatencySummary;
}

/** Parent → bystander, over IPC. */
export type BystanderCommand = { readonly type: 'window' } | { readonly type: 'stop' };

/** Bystander → parent, over IPC. */
export type BystanderReport =
  | { readonly type: 'ready' }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'window'; readonly stats: BystanderStats }
  | { readonly type: 'stopped'; readonly stats: BystanderStats };

/** The environment variables that tell a bystander where to connect (never its argv: the token stays private). */
export const BYSTANDER_ENV = { socketPath: 'PI_SOAK_SOCKET', token: 'PI_SOAK_TOKEN' } as const;
