import type { AgentMessage, JsonObject, ModelSpec, ProviderRequest, ThinkingLevel, ToolSchema } from '@pi/agent';
import { DEFAULT_MAX_OUTPUT_TOKENS } from './anthropic-request';

export type GeminiPart =
  | { text: string; thought?: boolean }
  | { functionCall: { name: string; args: JsonObject }; thoughtSignature?: string }
  | { functionResponse: { name: string; response: JsonObject } };

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

/** The JSON body of `POST /v1beta/models/{model}:streamGenerateContent?alt=sse` (the fields pi sends). */
export interface GeminiBody {
  systemInstruction?: { parts: Array<{ text: string }> };
  contents: GeminiContent[];
  tools?: Array<{
    functionDeclarations: Array<{ name: string; description: string; parametersJsonSchema: JsonObject }>;
  }>;
  generationConfig: {
    maxOutputTokens: number;
    thinkingConfig?: { thinkingBudget: number; includeThoughts: boolean };
  };
}

/** What a Gemini model may spend on thinking at each level; `off` asks for none (0) where the model allows it. */
export const GEMINI_THINKING_BUDGETS: Readonly<Record<ThinkingLevel, number>> = Object.freeze({
  off: 0,
  low: 4_096,
  high: 16_384,
});

/** The body for one turn: the system prompt as `systemInstruction`, tools as function declarations. */
export function geminiBody(request: ProviderRequest, model: ModelSpec): GeminiBody {
  const body: GeminiBody = {
    contents: toGeminiContents(request.messages, model.provider),
    generationConfig: { maxOutputTokens: model.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS },
  };
  if (request.systemPrompt) body.systemInstruction = { parts: [{ text: request.systemPrompt }] };
  if (request.tools.length > 0) body.tools = [{ functionDeclarations: request.tools.map(toDeclaration) }];
  if (model.reasoning) {
    body.generationConfig.thinkingConfig = {
      thinkingBudget: GEMINI_THINKING_BUDGETS[request.thinkingLevel],
      includeThoughts: request.thinkingLevel !== 'off',
    };
  }
  return body;
}

/**
 * Agent messages as Gemini contents: the assistant is `model`, tool results are `functionResponse` parts of a user
 * turn (matched by the function's name, as Gemini calls have no ids of their own), and consecutive turns of one role
 * share one content. Reasoning text is not sent back, a call's thought signature is (to the provider that made it); empty text is dropped.
 */
export function toGeminiContents(messages: readonly AgentMessage[], providerId?: string): GeminiContent[] {
  const contents: GeminiContent[] = [];
  const add = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        add(
          'user',
          message.content.filter((part) => part.text !== '').map((part) => ({ text: part.text })),
        );
        break;
      case 'assistant': {
        // A thought signature goes back only to the provider that made it; another one would refuse it.
        const own = providerId !== undefined && message.model.startsWith(`${providerId}/`);
        add(
          'model',
          message.content.flatMap((part): GeminiPart[] => {
            if (part.type === 'text') return part.text === '' ? [] : [{ text: part.text }];
            if (part.type === 'tool_call') {
              const call = { functionCall: { name: part.name, args: part.arguments } };
              return [own && part.signature !== undefined ? { ...call, thoughtSignature: part.signature } : call];
            }
            return [];
          }),
        );
        break;
      }
      case 'tool': {
        const output = message.content.map((part) => part.text).join('\n');
        add('user', [
          {
            functionResponse: {
              name: message.toolName,
              response: message.isError ? { error: output } : { output },
            },
          },
        ]);
        break;
      }
    }
  }
  return contents;
}

function toDeclaration(tool: ToolSchema) {
  return { name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters };
}
