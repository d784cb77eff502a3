import { ProviderError, type ProviderEvent } from '@pi/agent';
import { expect } from 'vitest';

/** The events a turn streamed before its end, and the ProviderError it ended with (null when it answered). */
export async function streamOutcome(events: AsyncIterable<ProviderEvent>) {
  const streamed: ProviderEvent[] = [];
  try {
    for await (const event of events) streamed.push(event);
    return { streamed, error: null };
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return { streamed, error: error as ProviderError };
  }
}
