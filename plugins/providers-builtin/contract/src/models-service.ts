import { z } from 'zod';
import { THINKING_LEVELS, thinkingLevelSchema, type ThinkingLevel } from '@pi/agent-contract';
import type { Context } from '@pi/context';
import { defineRemoteService, type RemoteState } from '@pi/remote';

// The spec's shared contract, as type aliases so every value is assignable to JSON types.

// Thinking levels are the agent's contract (what a provider is asked for); the models service keeps the current one.
export { THINKING_LEVELS, thinkingLevelSchema, type ThinkingLevel };

export type ModelRef = {
  provider: string;
  modelId: string;
};

export type ModelSpec = ModelRef & {
  name: string;
  reasoning: boolean;
  /** Present (true) when the model's provider needs an API key and none is set: a prompt to it would fail. */
  keyMissing?: true;
  /** How many tokens a request may hold, when known (the footer shows how full the context is). */
  contextWindow?: number;
  /** Present (true) when the model reads images in a prompt. */
  images?: true;
};

export type RefreshStatus =
  | { status: 'idle' | 'refreshing' | 'done' }
  /** `errors` by source: `models.json` for the file, a provider id for a provider that failed its probe. */
  | { status: 'warning'; errors: Record<string, string> };

export type ModelsState = {
  catalog: { revision: number; availableModels: ModelSpec[] };
  configuration: { model: ModelRef | null; thinkingLevel: ThinkingLevel };
  refresh: RefreshStatus;
};

/**
 * Model selection authority. `select` rejects a model outside the catalogue with `unknown_model`; a model
 * without reasoning always runs with thinking `off`. `refresh` re-reads models.json and re-probes the
 * configured providers; aborting its context cancels only that call and leaves the status as it was.
 */
export interface ModelsService {
  readonly state: RemoteState<ModelsState>;
  cycleThinking(context: Context): Promise<void>;
  refresh(context: Context): Promise<void>;
  select(model: ModelRef, context: Context): Promise<void>;
}

/**
 * The longest provider id and model id `select` accepts. Real ids are far shorter; the bound keeps one call
 * from making the host check, or an error quote, megabytes. The state schemas stay unbounded, so a long id in
 * models.json cannot break every client's watch; such a model just cannot be selected.
 */
export const MAX_PROVIDER_ID_LENGTH = 256;
export const MAX_MODEL_ID_LENGTH = 256;

export const modelRefSchema = z.object({ provider: z.string().min(1), modelId: z.string().min(1) });
/** A model reference as a caller sends it. */
export const modelSelectionSchema = z.object({
  provider: z.string().min(1).max(MAX_PROVIDER_ID_LENGTH),
  modelId: z.string().min(1).max(MAX_MODEL_ID_LENGTH),
});
export const modelSpecSchema = modelRefSchema.extend({
  name: z.string(),
  reasoning: z.boolean(),
  keyMissing: z.literal(true).optional(),
  contextWindow: z.number().int().positive().optional(),
  images: z.literal(true).optional(),
});

export const refreshStatusSchema = z.union([
  z.object({ status: z.enum(['idle', 'refreshing', 'done']) }),
  z.object({ status: z.literal('warning'), errors: z.record(z.string(), z.string()) }),
]);

export const modelsStateSchema = z.object({
  catalog: z.object({ revision: z.number().int().min(0), availableModels: z.array(modelSpecSchema) }),
  configuration: z.object({ model: modelRefSchema.nullable(), thinkingLevel: thinkingLevelSchema }),
  refresh: refreshStatusSchema,
});

export const Models = defineRemoteService<ModelsService>('models', {
  methods: {
    cycleThinking: { args: [], result: z.void() },
    refresh: { args: [], result: z.void() },
    select: { args: [modelSelectionSchema], result: z.void() },
  },
  state: { state: modelsStateSchema },
  events: {},
});

/** The code `select` rejects with when the model is not in the catalogue. */
export const UNKNOWN_MODEL = 'unknown_model';
