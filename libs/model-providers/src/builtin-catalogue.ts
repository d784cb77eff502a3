import type { ModelSpec, ProviderLogin } from '@pi/agent';

/** The wire protocols a provider may speak. */
export const PROVIDER_APIS = ['openai-completions', 'anthropic', 'google'] as const;

export type ProviderApi = (typeof PROVIDER_APIS)[number];

/** A provider pi knows without configuration: where it is, how to talk to it, where its key is, what it offers. */
export interface BuiltinProvider {
  readonly id: string;
  readonly name: string;
  readonly api: ProviderApi;
  readonly baseUrl: string;
  readonly apiKeyEnv: string;
  /** How a person signs in instead of pasting a key, for a provider that offers it. */
  readonly login?: ProviderLogin;
  readonly models: readonly Omit<ModelSpec, 'provider'>[];
}

const usd = (input: number, output: number, cacheRead: number, cacheWrite = 0) => ({
  input,
  output,
  cacheRead,
  cacheWrite,
});

/**
 * The built-in catalogue: each provider's current coding models with their window, answer limit, reasoning, image input and
 * list prices per million tokens (USD, as published when this list was last revised). models.json adds models to
 * these providers and overrides any field, the base URL included (a proxy, a test server).
 */
export const BUILTIN_PROVIDERS: readonly BuiltinProvider[] = Object.freeze([
  {
    id: 'anthropic',
    name: 'Anthropic',
    api: 'anthropic',
    baseUrl: 'https://api.anthropic.com',
    apiKeyEnv: 'ANTHROPIC_API_KEY',
    models: [
      {
        modelId: 'claude-sonnet-4-5',
        name: 'Claude Sonnet 4.5',
        reasoning: true,
        images: true,
        contextWindow: 200_000,
        maxOutputTokens: 64_000,
        cost: usd(3, 15, 0.3, 3.75),
      },
      {
        modelId: 'claude-opus-4-1',
        name: 'Claude Opus 4.1',
        reasoning: true,
        images: true,
        contextWindow: 200_000,
        maxOutputTokens: 32_000,
        cost: usd(15, 75, 1.5, 18.75),
      },
      {
        modelId: 'claude-haiku-4-5',
        name: 'Claude Haiku 4.5',
        reasoning: true,
        images: true,
        contextWindow: 200_000,
        maxOutputTokens: 64_000,
        cost: usd(1, 5, 0.1, 1.25),
      },
    ],
  },
  {
    id: 'openai',
    name: 'OpenAI',
    api: 'openai-completions',
    baseUrl: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    models: [
      {
        modelId: 'gpt-5',
        name: 'GPT-5',
        reasoning: true,
        images: true,
        contextWindow: 400_000,
        maxOutputTokens: 128_000,
        cost: usd(1.25, 10, 0.125),
      },
      {
        modelId: 'gpt-5-mini',
        name: 'GPT-5 mini',
        reasoning: true,
        images: true,
        contextWindow: 400_000,
        maxOutputTokens: 128_000,
        cost: usd(0.25, 2, 0.025),
      },
      {
        modelId: 'gpt-4.1',
        name: 'GPT-4.1',
        reasoning: false,
        images: true,
        contextWindow: 1_047_576,
        maxOutputTokens: 32_768,
        cost: usd(2, 8, 0.5),
      },
    ],
  },
  {
    id: 'google',
    name: 'Google',
    api: 'google',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
    apiKeyEnv: 'GEMINI_API_KEY',
    models: [
      {
        modelId: 'gemini-2.5-pro',
        name: 'Gemini 2.5 Pro',
        reasoning: true,
        images: true,
        contextWindow: 1_048_576,
        maxOutputTokens: 65_536,
        cost: usd(1.25, 10, 0.31),
      },
      {
        modelId: 'gemini-2.5-flash',
        name: 'Gemini 2.5 Flash',
        reasoning: true,
        images: true,
        contextWindow: 1_048_576,
        maxOutputTokens: 65_536,
        cost: usd(0.3, 2.5, 0.075),
      },
    ],
  },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    api: 'openai-completions',
    baseUrl: 'https://openrouter.ai/api/v1',
    apiKeyEnv: 'OPENROUTER_API_KEY',
    // OpenRouter's PKCE flow for apps (no client id): it answers with an API key of the user's account. Nothing
    // listens on the callback address; the person pastes the address the browser landed on, code included.
    login: {
      flow: 'authorization_code',
      dialect: 'openrouter',
      authorizeUrl: 'https://openrouter.ai/auth',
      tokenUrl: 'https://openrouter.ai/api/v1/auth/keys',
      redirectUri: 'http://localhost:3000/pi-login',
    },
    models: [
      {
        modelId: 'anthropic/claude-sonnet-4.5',
        name: 'Claude Sonnet 4.5 (OpenRouter)',
        reasoning: false,
        images: true,
        contextWindow: 200_000,
        maxOutputTokens: 64_000,
        cost: usd(3, 15, 0.3, 3.75),
      },
      {
        modelId: 'openai/gpt-5',
        name: 'GPT-5 (OpenRouter)',
        reasoning: true,
        images: true,
        contextWindow: 400_000,
        maxOutputTokens: 128_000,
        cost: usd(1.25, 10, 0.125),
      },
    ],
  },
  {
    id: 'groq',
    name: 'Groq',
    api: 'openai-completions',
    baseUrl: 'https://api.groq.com/openai/v1',
    apiKeyEnv: 'GROQ_API_KEY',
    models: [
      {
        modelId: 'openai/gpt-oss-120b',
        name: 'gpt-oss-120b (Groq)',
        reasoning: true,
        images: false,
        contextWindow: 131_072,
        maxOutputTokens: 65_536,
        cost: usd(0.15, 0.75, 0),
      },
    ],
  },
  {
    id: 'deepseek',
    name: 'DeepSeek',
    api: 'openai-completions',
    baseUrl: 'https://api.deepseek.com/v1',
    apiKeyEnv: 'DEEPSEEK_API_KEY',
    models: [
      {
        modelId: 'deepseek-chat',
        name: 'DeepSeek Chat',
        reasoning: false,
        images: false,
        contextWindow: 128_000,
        maxOutputTokens: 8_192,
        cost: usd(0.28, 0.42, 0.028),
      },
    ],
  },
  {
    id: 'xai',
    name: 'xAI',
    api: 'openai-completions',
    baseUrl: 'https://api.x.ai/v1',
    apiKeyEnv: 'XAI_API_KEY',
    models: [
      {
        modelId: 'grok-4',
        name: 'Grok 4',
        reasoning: false,
        images: true,
        contextWindow: 256_000,
        maxOutputTokens: 64_000,
        cost: usd(3, 15, 0.75),
      },
    ],
  },
  {
    id: 'mistral',
    name: 'Mistral',
    api: 'openai-completions',
    baseUrl: 'https://api.mistral.ai/v1',
    apiKeyEnv: 'MISTRAL_API_KEY',
    models: [
      {
        modelId: 'devstral-medium-latest',
        name: 'Devstral Medium',
        reasoning: false,
        images: false,
        contextWindow: 128_000,
        maxOutputTokens: 32_768,
        cost: usd(0.4, 2, 0),
      },
    ],
  },
  {
    id: 'cerebras',
    name: 'Cerebras',
    api: 'openai-completions',
    baseUrl: 'https://api.cerebras.ai/v1',
    apiKeyEnv: 'CEREBRAS_API_KEY',
    models: [
      {
        modelId: 'gpt-oss-120b',
        name: 'gpt-oss-120b (Cerebras)',
        reasoning: true,
        images: false,
        contextWindow: 131_072,
        maxOutputTokens: 32_768,
        cost: usd(0.35, 0.75, 0),
      },
    ],
  },
]);

export function builtinProvider(id: string): BuiltinProvider | undefined {
  return BUILTIN_PROVIDERS.find((provider) => provider.id === id);
}
