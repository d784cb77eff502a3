import { z } from 'zod';

/**
 * The user's own shell command (`!command` and `!!command` in the TUI; docs/decisions.md, "Shell commands from the
 * prompt"): it runs in the session's working directory, on the session's machine, outside the model's tools and
 * their permissions. Its output is recorded in the transcript as a `shell` entry; with `includeInContext` the model
 * reads it too, from the next prompt on.
 */
export interface ShellRequest {
  /** The command line, run with bash (or /bin/sh where there is no bash). */
  command: string;
  /** True for `!` (the model reads the output with the next prompt), false for `!!` (shown, never sent). */
  includeInContext: boolean;
  /** Seconds before the command and everything it started are killed (default SHELL_DEFAULT_TIMEOUT_SECONDS). */
  timeoutSeconds?: number;
}

/**
 * How a shell command ended and what of its output was kept: the same fields in the call's result, the transcript's
 * `shell` entry and the session file's record.
 */
// A type, not an interface: a session file's record (JSON data) is one.
export type ShellOutcome = {
  /** The kept tail (SHELL_OUTPUT_LIMITS). */
  output: string;
  exitCode: number | null;
  /** The signal that ended it, when one did (a kill after a timeout or an abort, or its own). */
  signal: string | null;
  timedOut: boolean;
  /** Cancelled by its caller (Escape in the TUI), or by the session stopping. */
  aborted: boolean;
  /** Only the tail was kept (SHELL_OUTPUT_LIMITS). */
  truncated: boolean;
};

/** How the command ended, once its `shell` entry is recorded. */
export interface ShellResult extends ShellOutcome {
  entryId: string;
}

/** The `shellRun` state: the command running now and the tail of its output so far, for every client; null when none. */
export interface ShellProgress {
  command: string;
  includeInContext: boolean;
  /** The last SHELL_LIVE_LIMITS of the output so far (updated a few times a second at most). */
  output: string;
  /** ISO-8601. */
  startedAt: string;
}

/** The RemoteError codes `shell` fails with; for every one of them nothing was recorded. */
export const SHELL_ERROR_CODES = {
  /** A run is in progress, or another shell command is running: one thing at a time. */
  busy: 'busy',
  /** The command is blank. */
  invalid_command: 'invalid_command',
  /** The shell could not be started (the working directory is gone, no descriptors left). */
  spawn_failed: 'spawn_failed',
  /** The command ran but its entry could not be written (the session file's fault). */
  session_file_unwritable: 'session_file_unwritable',
} as const;
export type ShellErrorCode = (typeof SHELL_ERROR_CODES)[keyof typeof SHELL_ERROR_CODES];

export const SHELL_DEFAULT_TIMEOUT_SECONDS = 600;
export const SHELL_MAX_TIMEOUT_SECONDS = 3600;
/** The longest command line accepted, in UTF-16 code units. */
export const MAX_SHELL_COMMAND_LENGTH = 16_384;
/** What the entry (and so the transcript and the model) keeps of the output: its last bytes and lines. */
export const SHELL_OUTPUT_LIMITS = { bytes: 50 * 1024, lines: 2000 } as const;
/** What the `shellRun` state carries of the output while the command runs. */
export const SHELL_LIVE_LIMITS = { bytes: 4096, lines: 20 } as const;

export const shellRequestSchema: z.ZodType<ShellRequest> = z.object({
  command: z.string().max(MAX_SHELL_COMMAND_LENGTH),
  includeInContext: z.boolean(),
  timeoutSeconds: z.number().positive().max(SHELL_MAX_TIMEOUT_SECONDS).optional(),
});

/** The fields of ShellOutcome, for the schemas of what holds one to extend. */
export const shellOutcomeShape = {
  output: z.string(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  timedOut: z.boolean(),
  aborted: z.boolean(),
  truncated: z.boolean(),
};

export const shellResultSchema: z.ZodType<ShellResult> = z.object({ entryId: z.string(), ...shellOutcomeShape });

export const shellProgressSchema: z.ZodType<ShellProgress> = z.object({
  command: z.string(),
  includeInContext: z.boolean(),
  output: z.string(),
  startedAt: z.string(),
});
