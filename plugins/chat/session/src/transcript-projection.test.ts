import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '@pi/agent';
import { projectTranscript } from './transcript-projection';

let counter = 0;
function entry(body: Record<string, unknown>): SessionEntry {
  counter += 1;
  return { id: `e${counter}`, parentId: null, timestamp: '2025-01-01T00:00:00.000Z', ...body } as SessionEntry;
}

describe('transcript projection', () => {
  it('turns messages and run records into compact entries, leaving custom entries out', () => {
    const branch = [
      entry({ kind: 'operation_started', operationId: 'op' }),
      entry({
        kind: 'message',
        operationId: 'op',
        message: { role: 'user', content: [{ type: 'text', text: 'Ask me' }] },
      }),
      entry({
        kind: 'message',
        operationId: 'op',
        message: {
          role: 'assistant',
          model: 'x/y',
          stopReason: 'tool_calls',
          content: [
            { type: 'text', text: 'Let me ' },
            { type: 'text', text: 'ask.' },
            { type: 'tool_call', id: 'c1', name: 'question', arguments: { question: 'Q?' } },
          ],
        },
      }),
      entry({
        kind: 'message',
        operationId: 'op',
        message: {
          role: 'tool',
          toolCallId: 'c1',
          toolName: 'question',
          content: [{ type: 'text', text: 'red' }],
          details: { answer: 'red' },
          isError: false,
        },
      }),
      entry({ kind: 'custom', namespace: '@pi/other', data: { secret: true } }),
      entry({ kind: 'cancel_requested', operationId: 'op' }),
      entry({ kind: 'operation_settled', operationId: 'op', outcome: 'aborted', error: null }),
    ];
    const transcript = projectTranscript(branch);
    expect(transcript.running).toBeNull();
    expect(transcript.entries.map((item) => item.kind)).toEqual([
      'run_started',
      'user',
      'assistant',
      'tool_result',
      'abort_requested',
      'run_settled',
    ]);
    expect(transcript.entries[2]).toMatchObject({
      text: 'Let me ask.',
      toolCalls: [{ id: 'c1', name: 'question', arguments: { question: 'Q?' } }],
    });
    expect(transcript.entries[3]).toMatchObject({
      toolCallId: 'c1',
      text: 'red',
      details: { answer: 'red' },
      isError: false,
    });
    expect(transcript.entries[5]).toMatchObject({ outcome: 'aborted', error: null });
    expect(JSON.stringify(transcript)).not.toContain('secret');
  });

  it('names the run that started and has not settled', () => {
    const transcript = projectTranscript([
      entry({ kind: 'operation_started', operationId: 'one' }),
      entry({ kind: 'operation_settled', operationId: 'one', outcome: 'completed', error: null }),
      entry({ kind: 'operation_started', operationId: 'two' }),
    ]);
    expect(transcript.running).toBe('two');
  });

  it("shows this plugin's ! and !! commands as shell entries, and nothing else of a plugin's own records", () => {
    const record = {
      type: 'shell',
      command: 'ls',
      output: 'a.txt',
      exitCode: 0,
      signal: null,
      timedOut: false,
      aborted: false,
      truncated: false,
      totalBytes: 6,
      timeoutSeconds: 600,
    };
    const said = { role: 'user', content: [{ type: 'text', text: '$ ls\na.txt' }] };
    const transcript = projectTranscript([
      entry({ kind: 'message', operationId: null, message: said, origin: { namespace: '@pi/chat', data: record } }),
      entry({ kind: 'custom', namespace: '@pi/chat', data: { ...record, command: 'pwd' } }),
      entry({ kind: 'custom', namespace: '@pi/chat', data: { type: 'shell', command: 'half a record' } }),
      entry({ kind: 'custom', namespace: '@pi/other', data: record }),
      entry({ kind: 'message', operationId: null, message: said, origin: { namespace: '@pi/other', data: record } }),
    ]);
    const shell = { kind: 'shell', output: 'a.txt', exitCode: 0, signal: null, truncated: false };
    expect(transcript.entries).toEqual([
      { ...shell, id: expect.any(String), command: 'ls', includeInContext: true, timedOut: false, aborted: false },
      { ...shell, id: expect.any(String), command: 'pwd', includeInContext: false, timedOut: false, aborted: false },
      // Another plugin's message is still a message the model read.
      { kind: 'user', id: expect.any(String), operationId: null, text: '$ ls\na.txt' },
    ]);
  });
});
