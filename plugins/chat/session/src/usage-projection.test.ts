import type { AssistantMessage, SessionEntry } from '@pi/agent';
import { EMPTY_SESSION_USAGE } from '@pi/chat';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { createRemoteState } from '@pi/remote';
import { describe, expect, it } from 'vitest';
import { usageOf, usageProjection } from './usage-projection';

let next = 0;
const answer = (usage?: AssistantMessage['usage']): SessionEntry =>
  ({
    kind: 'message',
    id: `e${(next += 1)}`,
    parentId: null,
    timestamp: '2026-12-02T00:00:00.000Z',
    operationId: null,
    message: { role: 'assistant', content: [], model: 'p/m', stopReason: 'stop', ...(usage ? { usage } : {}) },
  }) as SessionEntry;

describe('the session usage', () => {
  it('adds up every answer that reported usage, its cost where priced, and keeps the latest request as the context', () => {
    const totals = usageOf([
      answer({ input: 100, output: 10, cacheRead: 0, cacheWrite: 900, cost: 0.01 }),
      answer(),
      answer({ input: 20, output: 5, cacheRead: 900, cacheWrite: 0 }),
    ]);
    expect(totals).toEqual({ input: 120, output: 15, cacheRead: 900, cacheWrite: 900, cost: 0.01, contextTokens: 925 });
    expect(usageOf([answer()])).toEqual(EMPTY_SESSION_USAGE);
  });

  it('follows appended answers, and is not set again for entries without usage', () => {
    const usage = createRemoteState(EMPTY_SESSION_USAGE);
    const project = usageProjection(usage);
    project({ type: 'entry_appended', operationId: null, entry: answer() }, BACKGROUND_CONTEXT);
    expect(usage.revision).toBe(0);
    project(
      {
        type: 'entry_appended',
        operationId: null,
        entry: answer({ input: 5, output: 1, cacheRead: 0, cacheWrite: 0 }),
      },
      BACKGROUND_CONTEXT,
    );
    expect(usage.value).toMatchObject({ input: 5, output: 1, contextTokens: 6 });
  });
});
