import { summaryPrompt, type ModelSpec, type SummaryRequest } from '@pi/agent';
import type { ChatCompletionBody } from './openai-request';

/**
 * The summary request of a compaction: the harness's summary prompt as a system message, and the conversation as
 * text in one user message — no tools and no tool messages, which some servers refuse without a `tools` list.
 * Streamed like a turn, so the timeouts, retries, errors and redaction are the turn's.
 */
export function summaryCompletionBody(request: SummaryRequest, model: ModelSpec): ChatCompletionBody {
  const prompt = summaryPrompt(request);
  return {
    model: model.modelId,
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    stream: true,
    stream_options: { include_usage: true },
  };
}
