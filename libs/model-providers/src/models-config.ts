import type { ModelSpec } from '@pi/agent';
import { err, ok, type Result } from 'neverthrow';
import type { z } from 'zod';
import type { ConfigError } from './config-error';
import { MAX_MODELS_JSON_MODELS, MAX_REPORTED_ISSUES, MODELS_PER_STEP } from './models-config-limits';
import {
  formatPath,
  modelSliceSchema,
  modelsFileSchema,
  providerIdIssues,
  rawModels,
  rawProviders,
} from './models-config-schema';

/** One server the user configured: where it is, which env var holds its key, and the models it serves. */
export interface ProviderConfig {
  readonly id: string;
  readonly name: string;
  readonly baseUrl: string;
  /** The environment variable holding the API key; null for a server without authentication. */
  readonly apiKeyEnv: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly models: readonly ModelSpec[];
  /** How long the server may send nothing before a turn fails; absent means the provider's default (90 s). */
  readonly idleTimeoutMs?: number;
}

/** The validated user layer of the provider catalogue, providers in file order. Strict JSON throughout. */
export interface ModelsConfig {
  readonly providers: readonly ProviderConfig[];
}

export const EMPTY_MODELS_CONFIG: ModelsConfig = Object.freeze({ providers: Object.freeze([]) });

type ModelsConfigResult = Result<ModelsConfig, ConfigError>;

/**
 * Validates models.json (format in README.md):
 * `{ "providers": { "<id>": { "name"?, "baseUrl", "apiKeyEnv"?, "headers"?, "idleTimeoutMs"?, "models": [{ "id", "name"?,
 * "reasoning"?, "contextWindow"? }] } } }`, at most MAX_MODELS_JSON_MODELS models in all.
 */
export function parseModelsConfig(json: unknown): ModelsConfigResult {
  const steps = modelsConfigSteps(json);
  for (;;) {
    const step = steps.next();
    if (step.done === true) return step.value;
  }
}

/**
 * parseModelsConfig as steps: it pauses before each slice of MODELS_PER_STEP models, so a caller that gives the
 * event loop a turn at every pause (loadModelsConfig) never holds it for the whole catalogue.
 */
export function* modelsConfigSteps(json: unknown): Generator<void, ModelsConfigResult, void> {
  const providers = rawProviders(json);
  // Counted before anything is checked: an oversized catalogue costs nothing beyond its parse.
  const count = Object.values(providers).reduce<number>((sum, provider) => sum + rawModels(provider).length, 0);
  if (count > MAX_MODELS_JSON_MODELS) return err(tooManyModels(count));
  const parsed = modelsFileSchema.safeParse(json);
  const issues = parsed.success ? [] : parsed.error.issues.map(issueText([]));
  issues.push(...providerIdIssues(json));
  const models = new Map<string, ModelSpec[]>();
  for (const [id, provider] of Object.entries(providers)) {
    models.set(id, yield* modelSteps(id, rawModels(provider), issues));
  }
  if (!parsed.success || issues.length > 0) return err(invalidConfig(issues));
  return ok({
    providers: Object.entries(parsed.data.providers).map(([id, provider]): ProviderConfig => ({
      id,
      name: provider.name ?? id,
      baseUrl: provider.baseUrl,
      apiKeyEnv: provider.apiKeyEnv ?? null,
      headers: provider.headers ?? {},
      models: models.get(id) ?? [],
      // Only when set, so a config without it compares equal to one from before the key existed.
      ...(provider.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: provider.idleTimeoutMs }),
    })),
  });
}

/** One provider's models, a slice per step; problems (a bad field, a duplicate id) join `issues`. */
function* modelSteps(provider: string, raw: readonly unknown[], issues: string[]): Generator<void, ModelSpec[], void> {
  const specs: ModelSpec[] = [];
  const seen = new Set<string>();
  for (let start = 0; start < raw.length; start += MODELS_PER_STEP) {
    yield;
    const slice = modelSliceSchema.safeParse(raw.slice(start, start + MODELS_PER_STEP));
    if (!slice.success) {
      issues.push(...slice.error.issues.map(issueText(['providers', provider, 'models'], start)));
      continue;
    }
    for (const [index, model] of slice.data.entries()) {
      if (seen.has(model.id)) {
        issues.push(
          `${formatPath(['providers', provider, 'models', start + index, 'id'])}: duplicate model id "${model.id}"`,
        );
      }
      seen.add(model.id);
      specs.push({
        provider,
        modelId: model.id,
        name: model.name ?? model.id,
        reasoning: model.reasoning ?? false,
        ...(model.contextWindow === undefined ? {} : { contextWindow: model.contextWindow }),
      });
    }
  }
  return specs;
}

/** `<path>: <message>`, the path under `prefix`; a slice's indexes are moved by `offset` to the file's. */
function issueText(prefix: readonly PropertyKey[], offset = 0) {
  return (issue: z.core.$ZodIssue): string => {
    const [first, ...rest] = issue.path;
    const path = typeof first === 'number' ? [first + offset, ...rest] : issue.path;
    return `${formatPath([...prefix, ...path])}: ${issue.message}`;
  };
}

function invalidConfig(issues: readonly string[]): ConfigError {
  const hidden = issues.length - MAX_REPORTED_ISSUES;
  const shown = hidden > 0 ? [...issues.slice(0, MAX_REPORTED_ISSUES), `and ${hidden} more problems`] : issues;
  return { code: 'invalid_config', message: shown.join('; '), file: null, issues: shown };
}

function tooManyModels(count: number): ConfigError {
  return {
    code: 'too_many_models',
    message: `lists ${count} models, over the limit of ${MAX_MODELS_JSON_MODELS}; none was loaded`,
    file: null,
    issues: [],
    limit: { found: count, max: MAX_MODELS_JSON_MODELS },
  };
}
