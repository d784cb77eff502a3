/** One disposal callback that threw; the rest of the disposal still ran. */
export interface DisposalFailure {
  readonly pluginId: string;
  readonly message: string;
}

/** An effect that failed before its plugin was disposed, or that outlived its abort. */
export interface EffectFailure {
  readonly pluginId: string;
  readonly message: string;
}

/** What stop() saw: every disposal that failed, in the order they ran. */
export interface KernelStopReport {
  readonly failures: readonly DisposalFailure[];
}

export type KernelPhase = 'setup' | 'activate';

export const KernelStartErrorCode = {
  pluginFailed: 'plugin_failed',
  duplicatePlugin: 'duplicate_plugin',
  alreadyStarted: 'already_started',
  stopped: 'stopped',
} as const;

export type KernelStartErrorCode = (typeof KernelStartErrorCode)[keyof typeof KernelStartErrorCode];

/** A facet or activation callback failed; every created scope was disposed in reverse order. */
export interface PluginFailedError {
  readonly code: 'plugin_failed';
  readonly pluginId: string;
  readonly phase: KernelPhase;
  readonly message: string;
  readonly cause: unknown;
  readonly disposalFailures: readonly DisposalFailure[];
}

/** Start was refused before any facet ran, or cut short by stop(). */
export interface StartRefusedError {
  readonly code: 'duplicate_plugin' | 'already_started' | 'stopped';
  readonly message: string;
}

export type KernelStartError = PluginFailedError | StartRefusedError;
