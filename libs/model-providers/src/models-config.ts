import type { ModelSpec } from '@pi/agent';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import type { ConfigError } from './config-error';
import { MAX_IDLE_TIMEOUT_MS } from './stall-watch';

/** One server the user configured: where it is, which env var holds its key, and the models it serves. */
export interface ProviderConfig {
  readonly id: string;
  readonly name: string;
  readonly baseUrl: string;
  /** The environment variable holding the API key; null for a server without authentication. */
  readonly apiKeyEnv: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly models: readonly ModelSpec[];
  /** How long the server may send nothing before a turn fails; absent means the provider's default (120 s). */
  readonly idleTimeoutMs?: number;
}

/** The validated user layer of the provider catalogue, providers in file order. Strict JSON throughout. */
export interface ModelsConfig {
  readonly providers: readonly ProviderConfig[];
}

export const EMPTY_MODELS_CONFIG: ModelsConfig = Object.freeze({ providers: Object.freeze([]) });

/** Far above any model's window today; a larger number is a typo, not a model. */
export const MAX_CONTEXT_WINDOW = 100_000_000;

// Ids become the `provider` half of `provider/modelId`, so they cannot contain a slash.
const providerIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const headerNameSchema = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid HTTP header name');

const modelSchema = z.strictObject({
  id: z.string().min(1, 'a model id cannot be empty'),
  name: z.string().min(1).optional(),
  reasoning: z.boolean().optional(),
  contextWindow: z
    .number()
    .int('a whole number of tokens')
    .positive('must be at least 1 (tokens)')
    .max(MAX_CONTEXT_WINDOW, `at most ${MAX_CONTEXT_WINDOW} tokens`)
    .optional(),
});

const providerSchema = z.strictObject({
  name: z.string().min(1).optional(),
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'not an environment variable name')
    .optional(),
  headers: z.record(headerNameSchema, z.string()).optional(),
  idleTimeoutMs: z
    .number()
    .int('a whole number of milliseconds')
    .positive('must be at least 1 (milliseconds)')
    .max(MAX_IDLE_TIMEOUT_MS, `at most ${MAX_IDLE_TIMEOUT_MS} (5 minutes, the HTTP client's own limit)`)
    .optional(),
  models: z
    .array(modelSchema)
    .min(1, 'a provider needs at least one model')
    .superRefine((models, context) => {
      const seen = new Set<string>();
      for (const [index, model] of models.entries()) {
        if (seen.has(model.id))
          context.addIssue({ code: 'custom', path: [index, 'id'], message: `duplicate model id "${model.id}"` });
        seen.add(model.id);
      }
    }),
});

// Strict objects everywhere: a misspelt key is an error rather than silently dropped configuration.
const modelsFileSchema = z.strictObject({ providers: z.record(z.string(), providerSchema) });

/**
 * Validates models.json (format in README.md):
 * `{ "providers": { "<id>": { "name"?, "baseUrl", "apiKeyEnv"?, "headers"?, "idleTimeoutMs"?, "models": [{ "id", "name"?,
 * "reasoning"?, "contextWindow"? }] } } }`
 */
export function parseModelsConfig(json: unknown): Result<ModelsConfig, ConfigError> {
  const parsed = modelsFileSchema.safeParse(json);
  const issues = [
    ...(parsed.success ? [] : parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`)),
    ...providerIdIssues(json),
  ];
  if (!parsed.success || issues.length > 0)
    return err({ code: 'invalid_config', message: issues.join('; '), file: null, issues });
  const providers = Object.entries(parsed.data.providers).map(([id, provider]): ProviderConfig => ({
    id,
    name: provider.name ?? id,
    baseUrl: provider.baseUrl,
    apiKeyEnv: provider.apiKeyEnv ?? null,
    headers: provider.headers ?? {},
    models: provider.models.map((model) => ({
      provider: id,
      modelId: model.id,
      name: model.name ?? model.id,
      reasoning: model.reasoning ?? false,
      ...(model.contextWindow === undefined ? {} : { contextWindow: model.contextWindow }),
    })),
    // Only when set, so a config without it compares equal to one from before the key existed.
    ...(provider.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: provider.idleTimeoutMs }),
  }));
  return ok({ providers });
}

/** Checked apart from the schema because zod reports a bad record key without the key's own fields. */
function providerIdIssues(json: unknown): string[] {
  const providers = isRecord(json) ? json.providers : undefined;
  if (!isRecord(providers)) return [];
  return Object.keys(providers)
    .filter((id) => !providerIdPattern.test(id))
    .map((id) => `providers.${id}: a provider id is letters, digits, ".", "_" or "-" (no "/")`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `providers.openrouter.models[0].id`: the path a user would follow in the file. */
function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}
