import { z } from 'zod';
import { defineInteraction } from '@pi/remote';

/**
 * What "allow for this session" will cover, as the session decides it and the dialog says it: `command` is this
 * exact command (bash), `tool` is every later call of this tool, whatever its arguments.
 */
export type SessionGrantScope = 'command' | 'tool';

/** The session asks a presentation whether one tool call may run (spec: "a dangerous Bash hook requests ConfirmInteraction"). */
export interface ConfirmRequest {
  /** The tool's name, as the model called it (`bash`). */
  tool: string;
  /** What the call does, in one text the user can judge: the command, or the file written or edited. */
  summary: string;
  /** Further facts, one line each (`writes 12 lines (340 B)`). */
  details: string[];
  /** For a file edit: each replaced line (`-`) and what replaces it (`+`), edit after edit. */
  diff?: string;
  /** What answering `allow_session` would allow from now until the session process ends. */
  sessionGrant: SessionGrantScope;
  /** How long the session waits for the answer before it denies the call. */
  timeoutMs: number;
}

export interface ConfirmResponse {
  decision: 'allow_once' | 'allow_session' | 'deny';
}

export const CONFIRM_DECISIONS = ['allow_once', 'allow_session', 'deny'] as const satisfies ReadonlyArray<
  ConfirmResponse['decision']
>;

/** Bounds of a request, so a huge command cannot make a frame the connection refuses; the session cuts to them. */
export const MAX_TOOL_NAME_LENGTH = 128;
export const MAX_SUMMARY_LENGTH = 16_384;
export const MAX_DETAIL_LINES = 20;
export const MAX_DETAIL_LENGTH = 1_024;
/** setTimeout's ceiling. */
export const MAX_CONFIRM_TIMEOUT_MS = 2 ** 31 - 1;

export const confirmRequestSchema: z.ZodType<ConfirmRequest> = z.strictObject({
  tool: z.string().min(1).max(MAX_TOOL_NAME_LENGTH),
  summary: z.string().max(MAX_SUMMARY_LENGTH),
  details: z.array(z.string().max(MAX_DETAIL_LENGTH)).max(MAX_DETAIL_LINES),
  diff: z.string().max(MAX_SUMMARY_LENGTH).optional(),
  sessionGrant: z.enum(['command', 'tool']),
  timeoutMs: z.number().int().positive().max(MAX_CONFIRM_TIMEOUT_MS),
});

/** Strict: an answer with anything more or less than a known decision is malformed, and the call is denied. */
export const confirmResponseSchema: z.ZodType<ConfirmResponse> = z.strictObject({
  decision: z.enum(CONFIRM_DECISIONS),
});

/** The interaction a presentation handles to confirm tool calls; the broker validates both directions. */
export const ConfirmInteraction = defineInteraction<ConfirmRequest, ConfirmResponse>('tool-confirm', {
  request: confirmRequestSchema,
  response: confirmResponseSchema,
});
