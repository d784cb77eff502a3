import type { SummaryRequest } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import { OFFLINE_CONTEXT_WINDOW, createOfflineProvider } from './offline-provider';

describe('the offline summary', () => {
  it('lists the prompts and the tools used, deterministically', async () => {
    const provider = createOfflineProvider();
    const request: SummaryRequest = {
      modelId: 'echo',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'read a.ts' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_call', id: 'c1', name: 'read', arguments: { path: 'a.ts' } },
            { type: 'tool_call', id: 'c2', name: 'read', arguments: { path: 'b.ts' } },
            { type: 'tool_call', id: 'c3', name: 'bash', arguments: { command: 'ls' } },
          ],
          model: 'offline/echo',
          stopReason: 'tool_calls',
        },
        { role: 'user', content: [{ type: 'text', text: 'now\nfix it' }] },
      ],
      previousSummary: 'Earlier: set up the repo.',
      instructions: 'keep paths',
      maxInputTokens: null,
    };
    const summary = await provider.summarize?.(request, BACKGROUND_CONTEXT);
    expect(summary).toBe(
      [
        'Offline summary of 3 earlier messages.',
        '',
        'Before them:',
        'Earlier: set up the repo.',
        '',
        'The user asked:',
        '- read a.ts',
        '- now fix it',
        '',
        'Tools used: read ×2, bash',
        '',
        'Instructions: keep paths',
      ].join('\n'),
    );
    expect(await provider.summarize?.(request, BACKGROUND_CONTEXT)).toBe(summary);
  });

  it('has a catalogue window for both models', () => {
    expect(
      createOfflineProvider()
        .models()
        .map((model) => model.contextWindow),
    ).toEqual([OFFLINE_CONTEXT_WINDOW, OFFLINE_CONTEXT_WINDOW]);
  });
});
