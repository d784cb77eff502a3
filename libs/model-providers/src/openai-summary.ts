import { ProviderError, summaryPrompt, type ModelSpec, type ProviderEvent, type SummaryRequest } from '@pi/agent';
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

/** The answer's text; a summary cut off by the length limit is still a summary, one that asked for tools is not. */
export async function collectSummary(events: AsyncIterable<ProviderEvent>): Promise<string> {
  let text = '';
  for await (const event of events) {
    if (event.type === 'text_delta') text += event.delta;
    else if (event.type === 'tool_call')
      throw new ProviderError('malformed', 'the model answered the summary request with a tool call');
  }
  return text;
}
