import type { ModelSpec, ProviderLogin } from '@pi/agent';
import { err, ok, type Result } from 'neverthrow';
import type { z } from 'zod';
import { BUILTIN_PROVIDERS, builtinProvider, type BuiltinProvider, type ProviderApi } from './builtin-catalogue';
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

/**
 * One server: where it is, the protocol it speaks, which env var holds its key, and the models it serves. A
 * built-in provider the user did not mention is one too, from the catalogue; one they did is the catalogue's
 * entry with their fields over it.
 */
export interface ProviderConfig {
  readonly id: string;
  readonly name: string;
  readonly api: ProviderApi;
  readonly baseUrl: string;
  /** The environment variable holding the API key; null for a server without authentication. */
  readonly apiKeyEnv: string | null;
  readonly headers: Readonly<Record<string, string>>;
  readonly models: readonly ModelSpec[];
  /** How long the server may send nothing before a turn fails; absent means the provider's default (90 s). */
  readonly idleTimeoutMs?: number;
  /** How a person signs in instead of typing a key, when the provider offers it. */
  readonly login?: ProviderLogin;
}

/**
 * The validated user layer of the provider catalogue, providers in file order (a built-in one merged with its
 * catalogue entry). Strict JSON throughout.
 */
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
  for (const [id, provider] of Object.entries(providers)) {
    if (builtinProvider(id) !== undefined) continue;
    const hasBaseUrl = typeof provider === 'object' && provider !== null && 'baseUrl' in provider;
    if (!hasBaseUrl) issues.push(`providers.${id}.baseUrl: required for a provider pi does not know`);
    if (rawModels(provider).length === 0)
      issues.push(`providers.${id}.models: a provider pi does not know needs at least one model`);
  }
  if (!parsed.success || issues.length > 0) return err(invalidConfig(issues));
  const configs: ProviderConfig[] = [];
  for (const [id, provider] of Object.entries(parsed.data.providers)) {
    const builtin = builtinProvider(id);
    const given = models.get(id) ?? [];
    const baseUrl = provider.baseUrl ?? builtin?.baseUrl;
    // Checked above: only a built-in provider may leave its base URL out.
    if (baseUrl === undefined) continue;
    const apiKeyEnv = provider.apiKeyEnv ?? builtin?.apiKeyEnv ?? null;
    configs.push({
      id,
      name: provider.name ?? builtin?.name ?? id,
      api: provider.api ?? builtin?.api ?? 'openai-completions',
      baseUrl,
      apiKeyEnv,
      headers: provider.headers ?? {},
      models: mergedModels(id, builtin, given),
      // Only when set, so a config without it compares equal to one from before the key existed.
      ...(provider.idleTimeoutMs === undefined ? {} : { idleTimeoutMs: provider.idleTimeoutMs }),
      ...loginOf(provider.login ?? builtin?.login),
    });
  }
  return ok({ providers: configs });
}

/** Every provider requests can go to: the built-in ones the user did not mention, in catalogue order, then theirs. */
export function providerCatalogue(config: ModelsConfig): readonly ProviderConfig[] {
  const mentioned = new Set(config.providers.map((provider) => provider.id));
  const untouched = BUILTIN_PROVIDERS.filter((provider) => !mentioned.has(provider.id)).map(
    (provider): ProviderConfig => ({
      id: provider.id,
      name: provider.name,
      api: provider.api,
      baseUrl: provider.baseUrl,
      apiKeyEnv: provider.apiKeyEnv,
      headers: {},
      models: provider.models.map((model) => ({ ...model, provider: provider.id })),
      ...loginOf(provider.login),
    }),
  );
  return [...untouched, ...config.providers];
}

/** `{ login }` when there is one: models.json's replaces the built-in's whole. */
function loginOf(login: ProviderLogin | undefined): { login?: ProviderLogin } {
  return login === undefined ? {} : { login };
}

/** A built-in provider's models with the user's: one of theirs with a catalogue id replaces it, others follow. */
function mergedModels(id: string, builtin: BuiltinProvider | undefined, given: readonly ModelSpec[]): ModelSpec[] {
  const catalogue = (builtin?.models ?? []).map((model): ModelSpec => ({ ...model, provider: id }));
  const replaced = new Map(given.map((model) => [model.modelId, model]));
  const merged = catalogue.map((model) => replaced.get(model.modelId) ?? model);
  const known = new Set(catalogue.map((model) => model.modelId));
  return [...merged, ...given.filter((model) => !known.has(model.modelId))];
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
        ...(model.images === undefined ? {} : { images: model.images }),
        ...(model.maxOutputTokens === undefined ? {} : { maxOutputTokens: model.maxOutputTokens }),
        ...(model.cost === undefined ? {} : { cost: { cacheRead: 0, cacheWrite: 0, ...model.cost } }),
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
