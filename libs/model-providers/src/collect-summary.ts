import { ProviderError, type ProviderEvent } from '@pi/agent';

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
