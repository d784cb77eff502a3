import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Context } from '@pi/context';
import { chatEventSchema, streamingCheckpointSchema } from './chat-events';
import { MAX_EXPORT_PATH_LENGTH, exportRequestSchema } from './chat-export';
import { chatQueueSchema, queueResponseSchema, type QueueResponse } from './chat-queue';
import { MAX_SHELL_COMMAND_LENGTH, SHELL_MAX_TIMEOUT_SECONDS, shellRequestSchema } from './chat-shell';
import { Chat, promptResponseSchema, type ChatService, type PromptRequest, type PromptResponse } from './chat-service';
import { CHAT_PLUGIN_ID } from './plugin-id';
import { transcriptEntrySchema } from './transcript';
import {
  historyPageSchema,
  historyRequestSchema,
  recentTranscriptSchema,
  transcriptHeadSchema,
} from './transcript-window';

describe('chat contract', () => {
  it('names its session and tui facet modules in its package metadata', () => {
    expect(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).name).toBe(CHAT_PLUGIN_ID);
    const metadata = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).pi;
    expect(metadata).toEqual({
      apiVersion: '2.2',
      description: expect.any(String),
      facets: { session: '@pi/chat-session', tui: '@pi/chat-tui' },
    });
  });

  it('exposes exactly its methods, the eight state cells (recent first) and one event stream', () => {
    expect(Chat.id).toBe('chat');
    expect(Object.keys(Chat.exposure.methods).sort()).toEqual([
      'compact',
      'exportHtml',
      'followUp',
      'history',
      'info',
      'operation',
      'prompt',
      'requestAbort',
      'shell',
      'steer',
      'withdraw',
    ]);
    expect(Object.keys(Chat.exposure.state)).toEqual([
      'recent',
      'transcript',
      'streaming',
      'queue',
      'storage',
      'waiting',
      'usage',
      'shellRun',
    ]);
    expect(Object.keys(Chat.exposure.events)).toEqual(['events']);
  });

  it('prompt takes JSON and answers with acceptance, not settlement', () => {
    expectTypeOf<ChatService['prompt']>().parameters.toEqualTypeOf<[PromptRequest, Context]>();
    expectTypeOf<ChatService['prompt']>().returns.toEqualTypeOf<Promise<PromptResponse>>();
    expect(
      promptResponseSchema.safeParse({
        accepted: false,
        operationId: null,
        error: { code: 'no_model', message: 'pick one' },
      }).success,
    ).toBe(true);
    expect(
      promptResponseSchema.safeParse({ accepted: false, operationId: null, error: { code: 'exploded', message: '?' } })
        .success,
    ).toBe(false);
  });

  it('steer and follow-up take what prompt takes and answer queued, started or refused with a stable code', () => {
    expectTypeOf<ChatService['steer']>().parameters.toEqualTypeOf<[PromptRequest, Context]>();
    expectTypeOf<ChatService['followUp']>().returns.toEqualTypeOf<Promise<QueueResponse>>();
    const queued = { accepted: true, queueItemId: 'q1', operationId: null, error: null };
    expect(queueResponseSchema.safeParse(queued).success).toBe(true);
    const refused = {
      accepted: false,
      queueItemId: null,
      operationId: null,
      error: { code: 'queue_full', message: '' },
    };
    expect(queueResponseSchema.safeParse(refused).success).toBe(true);
    expect(queueResponseSchema.safeParse({ ...refused, error: { code: 'busy', message: '' } }).success).toBe(false);
    const item = { id: 'q1', kind: 'follow-up', text: 'later', queuedAt: '2025-01-01T00:00:00.000Z' };
    expect(chatQueueSchema.safeParse({ items: [item] }).success).toBe(true);
    expect(chatQueueSchema.safeParse({ items: [{ ...item, kind: 'followUp' }] }).success).toBe(false);
  });

  it('shell takes a command and whether the model reads it, with a bounded timeout and length', () => {
    const request = { command: 'ls', includeInContext: true };
    expect(shellRequestSchema.safeParse(request).success).toBe(true);
    expect(shellRequestSchema.safeParse({ command: 'ls' }).success).toBe(false);
    expect(shellRequestSchema.safeParse({ ...request, timeoutSeconds: SHELL_MAX_TIMEOUT_SECONDS }).success).toBe(true);
    expect(shellRequestSchema.safeParse({ ...request, timeoutSeconds: SHELL_MAX_TIMEOUT_SECONDS + 1 }).success).toBe(
      false,
    );
    expect(shellRequestSchema.safeParse({ ...request, timeoutSeconds: 0 }).success).toBe(false);
    const long = 'x'.repeat(MAX_SHELL_COMMAND_LENGTH + 1);
    expect(shellRequestSchema.safeParse({ ...request, command: long }).success).toBe(false);
  });

  it('exportHtml takes an optional path (not blank, not longer than a path can be) and whether to replace a file', () => {
    expect(exportRequestSchema.safeParse({}).success).toBe(true);
    expect(exportRequestSchema.safeParse({ path: 'out.html', overwrite: true }).success).toBe(true);
    expect(exportRequestSchema.safeParse({ path: '  ' }).success).toBe(false);
    expect(exportRequestSchema.safeParse({ path: 'x'.repeat(MAX_EXPORT_PATH_LENGTH + 1) }).success).toBe(false);
  });

  it('refuses a checkpoint whose offset disagrees with its text', () => {
    expect(streamingCheckpointSchema.safeParse({ operationId: 'op', segment: 0, text: 'abc', offset: 3 }).success).toBe(
      true,
    );
    expect(streamingCheckpointSchema.safeParse({ operationId: 'op', segment: 0, text: 'abc', offset: 2 }).success).toBe(
      false,
    );
  });

  it('keeps events and the transcript to their declared shapes', () => {
    expect(
      chatEventSchema.safeParse({ type: 'delta', operationId: 'op', segment: 0, offset: -1, text: 'x' }).success,
    ).toBe(false);
    expect(
      chatEventSchema.safeParse({ type: 'settled', operationId: 'op', outcome: 'aborted', error: null }).success,
    ).toBe(true);
    const toolResult = {
      kind: 'tool_result',
      id: 'e',
      operationId: 'op',
      toolCallId: 'c',
      toolName: 'question',
      text: 'ok',
      details: { answer: 'red' },
      isError: false,
    };
    expect(transcriptEntrySchema.safeParse(toolResult).success).toBe(true);
    expect(transcriptEntrySchema.safeParse({ ...toolResult, kind: 'secret' }).success).toBe(false);
    expect(chatEventSchema.safeParse({ type: 'appended', branch: 'b', index: 3, entry: toolResult }).success).toBe(
      true,
    );
    expect(chatEventSchema.safeParse({ type: 'appended', branch: 'b', index: -1, entry: toolResult }).success).toBe(
      false,
    );
  });

  it('keeps the transcript cells and history pages to their shapes and bounds', () => {
    const entry = { kind: 'run_started', id: 'e', operationId: 'op' };
    expect(transcriptHeadSchema.safeParse({ branch: 'b', total: 3, running: null }).success).toBe(true);
    expect(transcriptHeadSchema.safeParse({ branch: '', total: 3, running: null }).success).toBe(false);
    expect(
      recentTranscriptSchema.safeParse({ branch: 'b', firstIndex: 0, entries: Array(100).fill(entry) }).success,
    ).toBe(true);
    expect(
      recentTranscriptSchema.safeParse({ branch: 'b', firstIndex: 0, entries: Array(101).fill(entry) }).success,
    ).toBe(false);
    expect(historyPageSchema.safeParse({ branch: 'b', firstIndex: 0, entries: Array(201).fill(entry) }).success).toBe(
      false,
    );
    expect(historyRequestSchema.safeParse({ before: 10, limit: 0 }).success).toBe(false);
    expect(historyRequestSchema.safeParse({ before: 1.5, limit: 1 }).success).toBe(false);
  });
});
