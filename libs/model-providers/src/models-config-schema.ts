import { providerLoginSchema } from '@pi/agent';
import { z } from 'zod';
import { PROVIDER_APIS } from './builtin-catalogue';
import { MAX_CONTEXT_WINDOW } from './models-config-limits';
import { MAX_IDLE_TIMEOUT_MS } from './stall-watch';

// Ids become the `provider` half of `provider/modelId`, so they cannot contain a slash.
const providerIdPattern = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const headerNameSchema = z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, 'not a valid HTTP header name');

/** US dollars per million tokens. */
const price = z.number().min(0, 'a price cannot be negative').max(10_000, 'at most 10,000 (USD per million tokens)');

export const modelSchema = z.strictObject({
  id: z.string().min(1, 'a model id cannot be empty'),
  name: z.string().min(1).optional(),
  reasoning: z.boolean().optional(),
  images: z.boolean().optional(),
  contextWindow: z
    .number()
    .int('a whole number of tokens')
    .positive('must be at least 1 (tokens)')
    .max(MAX_CONTEXT_WINDOW, `at most ${MAX_CONTEXT_WINDOW} tokens`)
    .optional(),
  maxOutputTokens: z
    .number()
    .int('a whole number of tokens')
    .positive('must be at least 1 (tokens)')
    .max(MAX_CONTEXT_WINDOW, `at most ${MAX_CONTEXT_WINDOW} tokens`)
    .optional(),
  cost: z
    .strictObject({
      input: price,
      output: price,
      cacheRead: price.optional(),
      cacheWrite: price.optional(),
    })
    .optional(),
});

/** A slice of one provider's models, checked between turns of the event loop. */
export const modelSliceSchema = z.array(modelSchema);

const providerSchema = z.strictObject({
  name: z.string().min(1).optional(),
  // Optional here: a built-in provider has its own; a provider pi does not know is checked for one later.
  baseUrl: z.url({ protocol: /^https?$/ }).optional(),
  api: z.enum(PROVIDER_APIS).optional(),
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
  // A provider's sign-in instead of a typed key; one given here replaces a built-in provider's whole.
  login: providerLoginSchema.optional(),
  // Only the list here: its models are checked a slice at a time (modelSliceSchema), so a long list never holds
  // the event loop in one step.
  models: z.array(z.unknown()).optional(),
});

// Strict objects everywhere: a misspelt key is an error rather than silently dropped configuration.
export const modelsFileSchema = z.strictObject({ providers: z.record(z.string(), providerSchema) });

/** Checked apart from the schema because zod reports a bad record key without the key's own fields. */
export function providerIdIssues(json: unknown): string[] {
  return Object.keys(rawProviders(json))
    .filter((id) => !providerIdPattern.test(id))
    .map((id) => `providers.${id}: a provider id is letters, digits, ".", "_" or "-" (no "/")`);
}

/** The `providers` object of a parsed file as it is, before any check (empty when there is none). */
export function rawProviders(json: unknown): Record<string, unknown> {
  const providers = isRecord(json) ? json['providers'] : undefined;
  return isRecord(providers) ? providers : {};
}

/** A provider's `models` as written, when it is a list. */
export function rawModels(provider: unknown): readonly unknown[] {
  const models = isRecord(provider) ? provider['models'] : undefined;
  return Array.isArray(models) ? models : [];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `providers.openrouter.models[0].id`: the path a user would follow in the file. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`))
    .join('');
}
