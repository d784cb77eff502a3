import { describe, expect, it } from 'vitest';
import { createDeferred, type Deferred } from './deferred';
import type { ToolCallPart, ToolResultMessage } from '@pi/agent-contract';
import { runToolRound } from './tool-round';

const call = (id: string): ToolCallPart => ({
  type: 'tool_call',
  id,
  name: id.startsWith('p') ? 'parallel' : 'sequential',
  arguments: {},
});
const result = (id: string): ToolResultMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 't',
  content: [],
  details: null,
  isError: false,
});

describe('runToolRound', () => {
  it('overlaps consecutive parallel calls, runs a sequential call alone, and records in call order', async () => {
    const log: string[] = [];
    const running = new Map<string, Deferred<ToolResultMessage>>();
    const round = runToolRound({
      calls: ['p1', 'p2', 's3', 'p4'].map(call),
      isParallel: (toolCall) => toolCall.name === 'parallel',
      run: (toolCall) => {
        log.push(`start ${toolCall.id}`);
        const done = createDeferred<ToolResultMessage>();
        running.set(toolCall.id, done);
        return done.promise;
      },
      record: async (recorded) => void log.push(`record ${recorded.toolCallId}`),
    });
    const settle = async (id: string) => {
      running.get(id)?.resolve(result(id));
      for (let turn = 0; turn < 10; turn += 1) await Promise.resolve();
    };

    await settle('none');
    expect(log).toEqual(['start p1', 'start p2']);
    await settle('p2');
    expect(log).toEqual(['start p1', 'start p2']);
    await settle('p1');
    expect(log).toEqual(['start p1', 'start p2', 'record p1', 'record p2', 'start s3']);
    await settle('s3');
    await settle('p4');
    await round;
    expect(log.slice(5)).toEqual(['record s3', 'start p4', 'record p4']);
  });
});
