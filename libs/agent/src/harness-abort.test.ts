import { readFileSync } from 'node:fs';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentHarness } from './harness-types';
import type { UserMessage } from '@pi/agent-contract';
import { openHarness } from './open-harness';
import type { AgentTool } from '@pi/agent-contract';
import type { ScriptedProvider, ScriptStep } from './testing';
import {
  createDeferred,
  createScriptedProvider,
  createSessionDirectory,
  nextEvent,
  readSessionLines,
  testHarnessOptions,
  type SessionDirectory,
} from './testing';

const hello: UserMessage = { role: 'user', content: [{ type: 'text', text: 'hello' }] };

let directory: SessionDirectory;
let harness: AgentHarness | undefined;

beforeEach(async () => {
  directory = await createSessionDirectory();
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await directory.remove();
});

async function openWith(turns: ScriptStep[][]): Promise<{ harness: AgentHarness; provider: ScriptedProvider }> {
  const provider = createScriptedProvider({ turns });
  harness = (await openHarness(testHarnessOptions({ file: directory.file, providers: [provider] })))._unsafeUnwrap();
  return { harness, provider };
}

function kinds(lines: Array<Record<string, unknown>>): unknown[] {
  return lines.map((line) => line['kind'] ?? line['type']);
}

describe('requestAbort (durable cancellation)', () => {
  it('writes and syncs cancel_requested before the run is told to stop, then settles aborted keeping the text so far', async () => {
    const never = createDeferred<void>();
    const { harness, provider } = await openWith([
      [
        { type: 'text_delta', delta: 'Hel' },
        { type: 'wait', until: never.promise },
        { type: 'text_delta', delta: 'lo' },
        { type: 'done', stopReason: 'stop' },
      ],
    ]);
    const firstDelta = nextEvent(harness, 'text_delta');
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await firstDelta;
    // What the file held at the instant the provider was told to stop.
    let fileAtAbort = '';
    provider.requests[0]?.context.abortSignal?.addEventListener('abort', () => {
      fileAtAbort = readFileSync(directory.file, 'utf8');
    });

    expect((await harness.main.requestAbort(operationId, BACKGROUND_CONTEXT)).isOk()).toBe(true);
    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'aborted', error: null });

    expect(fileAtAbort).toContain('"kind":"cancel_requested"');
    const lines = await readSessionLines(directory.file);
    expect(kinds(lines)).toEqual([
      'session',
      'operation_started',
      'message',
      'cancel_requested',
      'message',
      'operation_settled',
    ]);
    expect(lines[4]).toMatchObject({
      kind: 'message',
      operationId,
      message: { role: 'assistant', content: [{ type: 'text', text: 'Hel' }], stopReason: 'aborted' },
    });
    expect(lines[5]).toMatchObject({ kind: 'operation_settled', operationId, outcome: 'aborted', error: null });
    expect(harness.main.running).toBeNull();
  });

  it('settles aborted even when the provider ignores the abort signal', async () => {
    const deaf = {
      id: 'deaf',
      name: 'Deaf',
      models: () => [{ provider: 'deaf', modelId: 'm', name: 'm', reasoning: false }],
      async *stream() {
        yield { type: 'text_delta' as const, delta: 'x' };
        await new Promise(() => undefined);
      },
    };
    harness = (await openHarness(testHarnessOptions({ file: directory.file, providers: [deaf] })))._unsafeUnwrap();
    const delta = nextEvent(harness, 'text_delta');
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await delta;

    await harness.main.requestAbort(operationId, BACKGROUND_CONTEXT);

    expect((await harness.main.settled(operationId)).outcome).toBe('aborted');
  });

  it('aborts a running tool through its context, records its result and starts no further turn', async () => {
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'tool_call', id: 'c1', name: 'watch', arguments: {} },
          { type: 'done', stopReason: 'tool_calls' },
        ],
      ],
    });
    const watch: AgentTool<Record<string, never>> = {
      name: 'watch',
      label: 'Watch',
      description: 'runs until aborted',
      executionMode: 'sequential',
      parameters: z.object({}),
      execute: (_args, context) =>
        new Promise((resolve) => {
          context.abortSignal?.addEventListener('abort', () =>
            resolve({ content: [{ type: 'text', text: 'stopped' }], details: null }),
          );
        }),
    };
    harness = (
      await openHarness(testHarnessOptions({ file: directory.file, providers: [provider], tools: [watch] }))
    )._unsafeUnwrap();
    const started = nextEvent(harness, 'tool_started');
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await started;

    await harness.main.requestAbort(operationId, BACKGROUND_CONTEXT);

    expect((await harness.main.settled(operationId)).outcome).toBe('aborted');
    expect(provider.requests).toHaveLength(1);
    const lines = await readSessionLines(directory.file);
    expect(kinds(lines)).toEqual([
      'session',
      'operation_started',
      'message',
      'message',
      'cancel_requested',
      'message',
      'operation_settled',
    ]);
    expect(lines[5]).toMatchObject({ message: { role: 'tool', toolCallId: 'c1', content: [{ text: 'stopped' }] } });
  });

  it('rejects an unknown operation and an already settled one, writing nothing', async () => {
    const { harness } = await openWith([[{ type: 'done', stopReason: 'stop' }]]);
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.settled(operationId);
    const before = await readSessionLines(directory.file);

    expect((await harness.main.requestAbort('no-such-operation', BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe(
      'unknown_operation',
    );
    expect((await harness.main.requestAbort(operationId, BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe(
      'already_settled',
    );
    expect(await readSessionLines(directory.file)).toEqual(before);
  });

  it('writes cancel_requested once when abort is requested twice', async () => {
    const never = createDeferred<void>();
    const { harness } = await openWith([[{ type: 'wait', until: never.promise }]]);
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();

    const [first, second] = await Promise.all([
      harness.main.requestAbort(operationId, BACKGROUND_CONTEXT),
      harness.main.requestAbort(operationId, BACKGROUND_CONTEXT),
    ]);
    await harness.main.settled(operationId);

    expect(first.isOk() && second.isOk()).toBe(true);
    expect(kinds(await readSessionLines(directory.file)).filter((kind) => kind === 'cancel_requested')).toHaveLength(1);
  });
});

describe('invocation cancellation', () => {
  it('does not stop the run or write anything durable when the prompt or abort call is cancelled', async () => {
    const gate = createDeferred<void>();
    const { harness, provider } = await openWith([
      [
        { type: 'text_delta', delta: 'a' },
        { type: 'wait', until: gate.promise },
        { type: 'text_delta', delta: 'b' },
        { type: 'done', stopReason: 'stop' },
      ],
    ]);
    const invocation = new AbortController();
    const callContext = withAbortSignal(invocation.signal, BACKGROUND_CONTEXT);
    const delta = nextEvent(harness, 'text_delta');

    const { operationId } = (await harness.main.prompt([hello], callContext))._unsafeUnwrap();
    await delta;
    invocation.abort(new Error('client disconnected'));
    gate.resolve();

    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect(provider.requests[0]?.context.abortSignal?.aborted).toBe(false);
    const lines = await readSessionLines(directory.file);
    expect(kinds(lines)).toEqual(['session', 'operation_started', 'message', 'message', 'operation_settled']);
    expect(lines[3]).toMatchObject({ message: { content: [{ text: 'ab' }], stopReason: 'stop' } });
  });
});

describe('close', () => {
  it('stops a running run in memory and writes nothing more, so restart shows it unsettled', async () => {
    const never = createDeferred<void>();
    const { harness } = await openWith([
      [
        { type: 'text_delta', delta: 'partial' },
        { type: 'wait', until: never.promise },
      ],
    ]);
    const delta = nextEvent(harness, 'text_delta');
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await delta;

    await harness.close();

    expect((await harness.main.settled(operationId)).outcome).toBe('aborted');
    expect(kinds(await readSessionLines(directory.file))).toEqual(['session', 'operation_started', 'message']);
  });
});
