import { z } from 'zod';

/** How hard a model is asked to think before it answers, in the order `cycleThinking` walks (wrapping around). */
export const THINKING_LEVELS = Object.freeze(['off', 'low', 'high'] as const);

export type ThinkingLevel = (typeof THINKING_LEVELS)[number];

export const thinkingLevelSchema = z.enum(THINKING_LEVELS);
