import { z } from 'zod';
import { DEFAULT_INTERACTION_TIMEOUT_MS } from '@pi/remote';
import { DEFAULT_UNATTENDED_TIMEOUT_MS } from '@pi/plugin-api';

/**
 * The plugin's manifest config: how long a question waits for the user before it fails closed (`timeoutMs`), and
 * how long it waits for a presentation to attach when none is connected (`unattendedTimeoutMs`).
 */
export interface QuestionConfig {
  readonly timeoutMs: number;
  readonly unattendedTimeoutMs: number;
}

// setTimeout's ceiling; a longer wait would fire at once.
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

const configSchema = z
  .object({
    timeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional(),
    unattendedTimeoutMs: z.number().int().positive().max(MAX_TIMEOUT_MS).optional(),
  })
  .strict()
  .nullable();

/** Reads the manifest config; a wrong one fails the plugin's setup rather than silently using the default. */
export function parseQuestionConfig(raw: unknown): QuestionConfig {
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    throw new TypeError(
      `@pi/question config must be { "timeoutMs"?: positive integer, "unattendedTimeoutMs"?: positive integer }: ${
        parsed.error.issues[0]?.message ?? 'invalid'
      }`,
    );
  }
  return {
    timeoutMs: parsed.data?.timeoutMs ?? DEFAULT_INTERACTION_TIMEOUT_MS,
    unattendedTimeoutMs: parsed.data?.unattendedTimeoutMs ?? DEFAULT_UNATTENDED_TIMEOUT_MS,
  };
}
