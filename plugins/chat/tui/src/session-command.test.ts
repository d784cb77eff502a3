import { describe, expect, it } from 'vitest';
import { EMPTY_SESSION_USAGE } from '@pi/chat';
import { sessionInfoLines } from './session-command';

describe('/session', () => {
  it('names the session and its file, counts what it holds, and says what it used', () => {
    expect(
      sessionInfoLines({
        sessionId: 's-1',
        file: '/data/sessions/s-1.jsonl',
        entries: 14,
        messages: { user: 3, assistant: 6, tool: 4 },
        usage: {
          input: 12_345,
          output: 678,
          cacheRead: 90_000,
          cacheWrite: 1_200,
          cost: 0.04567,
          contextTokens: 9_000,
        },
      }),
    ).toEqual([
      'Session s-1',
      '  File: /data/sessions/s-1.jsonl',
      '  Messages: 3 from you, 6 from the model, 4 tool results (14 entries)',
      '  Tokens: 12,345 in, 678 out, 90,000 read from the cache, 1,200 written to it',
      '  Cost: $0.0457',
    ]);
  });

  it('says when no cost was recorded', () => {
    const info = {
      sessionId: 's',
      file: 'f',
      entries: 0,
      messages: { user: 0, assistant: 0, tool: 0 },
      usage: EMPTY_SESSION_USAGE,
    };
    expect(sessionInfoLines(info).at(-1)).toBe('  Cost: none recorded (the model has no prices, or is local)');
  });
});
