import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService, type RemoteState } from '@pi/remote';

/**
 * The built-in `diagnostics` service every session serves (issue 22): what went wrong in its plugins, so a user
 * learns of it. Hosts record failing plugin callbacks, hooks and effects, registry rebuild errors and diffs, what
 * restoring the session file repaired, tools the history used that no loaded plugin provides, and what plugins
 * report themselves. Bounded: the latest entries are kept.
 */

/** What an entry is about. */
/** `callback`: a plugin callback, hook or effect that failed. */
/** `load`: a plugin or a plugin scope the host left out at start (its manifest failed, its module was refused). */
export type DiagnosticKind = 'callback' | 'rebuild' | 'recovery' | 'missing_identities' | 'report' | 'load';

/** `info` entries are listed but not counted in the footer. */
export type DiagnosticSeverity = 'error' | 'warning' | 'info';

export interface DiagnosticEntry {
  /** Increases with every entry of the session. */
  id: number;
  /** Milliseconds since the epoch. */
  at: number;
  /** The plugin it is about, or `host`. */
  source: string;
  kind: DiagnosticKind;
  severity: DiagnosticSeverity;
  message: string;
}

export interface DiagnosticsState {
  /** The latest entries, oldest first. */
  entries: DiagnosticEntry[];
  /** Errors and warnings recorded since the last `clear` (entries that fell off the list included). */
  unseen: number;
}

export interface DiagnosticsService {
  readonly state: RemoteState<DiagnosticsState>;
  /** Marks every entry seen (the footer's count goes to zero); the entries stay listed. */
  clear(context: Context): Promise<void>;
}

/** How many entries a session keeps. */
export const MAX_DIAGNOSTICS = 100;
/** The longest message kept; longer ones are cut. */
export const MAX_DIAGNOSTIC_LENGTH = 2_000;

const entrySchema: z.ZodType<DiagnosticEntry> = z.object({
  id: z.number().int().min(0),
  at: z.number().int().min(0),
  source: z.string().max(214),
  kind: z.enum(['callback', 'rebuild', 'recovery', 'missing_identities', 'report', 'load']),
  severity: z.enum(['error', 'warning', 'info']),
  message: z.string().max(MAX_DIAGNOSTIC_LENGTH),
});

/** The `diagnostics` service's token: the session host provides it; presentations watch it. */
export const Diagnostics = defineRemoteService<DiagnosticsService>('diagnostics', {
  methods: { clear: { args: [], result: z.void() } },
  state: { state: z.object({ entries: z.array(entrySchema).max(MAX_DIAGNOSTICS), unseen: z.number().int().min(0) }) },
  events: {},
});

/** What a plugin may add itself (a setting it could not read, a file it ignored). */
export interface PluginDiagnostics {
  report(severity: DiagnosticSeverity, message: string): void;
}
