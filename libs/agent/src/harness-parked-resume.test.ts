import { readFile, writeFile } from 'node:fs/promises';
import { BACKGROUND_CONTEXT, createContextKey, withContextValue } from '@pi/context';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  TOOL_CALL_STEP,
  type AnyAgentTool,
  type RunSettings,
  type ToolCallStep,
  type UserMessage,
} from '@pi/agent-contract';
import type { AgentHarness, HarnessOptions } from './harness-types';
import { openHarness } from './open-harness';
import {
  createDeferred,
  createScriptedProvider,
  harnessTestBed,
  nextEvent,
  readSessionLines,
  testHarnessOptions,
  type ScriptStep,
  type ScriptedProvider,
} from './testing';

const bed = harnessTestBed();
const hello: UserMessage = { role: 'user', content: [{ type: 'text', text: 'ask me' }] };
const askCall: ScriptStep[] = [
  { type: 'tool_call', id: 'c1', name: 'ask', arguments: {} },
  { type: 'done', stopReason: 'tool_calls' },
];
const answer = (text: string): ScriptStep[] => [
  { type: 'text_delta', delta: text },
  { type: 'done', stopReason: 'stop' },
];

/** A client id on the send's context, as the session host's `originatorOf` reads its connection's. */
const SENDER = createContextKey<string | undefined>('test.sender', undefined);

/** A tool that waits on someone: each call is seen with its step, and answers when the test says so. */
function waitingTool(replay: 'safe' | undefined) {
  const steps: ToolCallStep[] = [];
  const reply = createDeferred<string>();
  const called = createDeferred<void>();
  const tool: AnyAgentTool = {
    name: 'ask',
    label: 'Ask',
    description: 'waits for an answer',
    executionMode: 'sequential',
    parameters: z.object({}),
    ...(replay === undefined ? {} : { replay }),
    async execute(_args, context) {
      const step = context.value(TOOL_CALL_STEP);
      if (step !== undefined) steps.push(step);
      called.resolve();
      return { content: [{ type: 'text', text: await reply.promise }], details: null };
    },
  };
  return { tool, steps, reply, called: called.promise };
}

async function open(
  turns: ScriptStep[][],
  tools: AnyAgentTool[],
): Promise<{ harness: AgentHarness; requests: number }> {
  const provider = createScriptedProvider({ turns });
  const options: HarnessOptions = {
    ...testHarnessOptions({ file: bed.directory.file, providers: [provider], tools }),
    originatorOf: (context) => context.value(SENDER),
  };
  const harness = (await openHarness(options))._unsafeUnwrap();
  bed.open.push(harness);
  return {
    harness,
    get requests() {
      return provider.requests.length;
    },
  };
}

/** Prompts as client `sender`, and "kills" the harness once the tool waits: nothing more is written. */
async function parkAndCrash(): Promise<string> {
  const first = waitingTool('safe');
  const { harness } = await open([askCall], [first.tool]);
  const sent = withContextValue(SENDER, 'client-a', BACKGROUND_CONTEXT);
  const { operationId } = (await harness.main.prompt([hello], sent))._unsafeUnwrap();
  await first.called;
  expect(first.steps).toEqual([{ operationId, toolCallId: 'c1', originator: 'client-a' }]);
  await harness.close();
  return operationId;
}

const toolResults = async () =>
  (await readSessionLines(bed.directory.file)).filter(
    (line) => (line['message'] as { role?: string } | undefined)?.role === 'tool',
  );

describe('a run parked on a tool when the session died', () => {
  it('resumes once the tools are up: the tool runs again for the same call, its result is recorded once, the model goes on', async () => {
    const operationId = await parkAndCrash();
    const again = waitingTool('safe');
    const { harness } = await open([answer('you said green')], [again.tool]);
    expect(harness.parked).toBe(operationId);
    expect(harness.main.running).toBe(operationId);
    const busy = await harness.main.prompt([hello], BACKGROUND_CONTEXT);
    expect(busy._unsafeUnwrapErr().code).toBe('busy');

    harness.startQueue();
    await again.called;
    expect(again.steps).toEqual([{ operationId, toolCallId: 'c1', originator: null }]);
    again.reply.resolve('green');

    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect(harness.recovery).toEqual([
      `operation ${operationId} stopped in a tool round (waiting on: ask); resumed it`,
    ]);
    expect(await toolResults()).toEqual([
      expect.objectContaining({ operationId, message: expect.objectContaining({ toolCallId: 'c1', isError: false }) }),
    ]);
    const messages = harness.tree.messages().map((message) => message.role);
    expect(messages).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('goes on from the result when the answer was recorded before the crash, without running the tool again', async () => {
    const first = waitingTool('safe');
    const { harness: before } = await open(
      [askCall, [{ type: 'wait', until: new Promise(() => undefined) }]],
      [first.tool],
    );
    const { operationId } = (await before.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    first.reply.resolve('blue');
    await nextEvent(
      before,
      'entry_appended',
      (event) => event.entry.kind === 'message' && event.entry.message.role === 'tool',
    );
    await before.close();

    const again = waitingTool('safe');
    const after = await open([answer('blue it is')], [again.tool]);
    after.harness.startQueue();

    expect(await after.harness.main.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect(again.steps).toEqual([]);
    expect(after.requests).toBe(1);
    expect(await toolResults()).toHaveLength(1);
  });

  it('settles as interrupted when the tool is gone, answering the call so the next request pairs it', async () => {
    const operationId = await parkAndCrash();
    const { harness } = await open([answer('next')], []);
    harness.startQueue();

    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'failed', error: 'interrupted' });
    expect(harness.recovery).toEqual([
      `operation ${operationId} was interrupted (started but never settled); settled it as failed`,
    ]);
    const [result] = await toolResults();
    expect(result).toMatchObject({ message: { toolCallId: 'c1', isError: true } });
    const next = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect((await harness.main.settled(next.operationId)).outcome).toBe('completed');
  });

  it('settles as interrupted when the tool may not run again', async () => {
    const operationId = await parkAndCrash();
    const unsafe = waitingTool(undefined);
    const { harness } = await open([], [unsafe.tool]);
    harness.startQueue();

    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'failed', error: 'interrupted' });
    expect(unsafe.steps).toEqual([]);
  });

  it('settles as aborted when its abort was requested while it was parked, before it resumed', async () => {
    const operationId = await parkAndCrash();
    const again = waitingTool('safe');
    const { harness } = await open([], [again.tool]);
    expect((await harness.main.requestAbort(operationId, BACKGROUND_CONTEXT)).isOk()).toBe(true);
    harness.startQueue();

    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'aborted', error: 'interrupted' });
    expect(again.steps).toEqual([]);
  });
});

describe('the model a parked run resumes with', () => {
  /** The crashed session opened again with these providers and `selected` the model chosen now; the tool answers. */
  async function reopen(providers: ScriptedProvider[], selected: RunSettings): Promise<AgentHarness> {
    const again = waitingTool('safe');
    again.reply.resolve('green');
    const setup = { file: bed.directory.file, providers, tools: [again.tool], settings: { current: selected } };
    const harness = (await openHarness(testHarnessOptions(setup)))._unsafeUnwrap();
    bed.open.push(harness);
    return harness;
  }

  const other: RunSettings = { model: { provider: 'other', modelId: 'model-b' }, thinkingLevel: 'high' };

  it('is its own, kept when it started, not the one selected at the restart', async () => {
    const operationId = await parkAndCrash();
    const own = createScriptedProvider({ turns: [answer('green, said model-a')] });
    const selected = createScriptedProvider({ id: 'other', modelIds: ['model-b'], turns: [] });
    const harness = await reopen([own, selected], other);
    harness.startQueue();

    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    const asked = own.requests.map(({ request }) => [request.modelId, request.thinkingLevel]);
    expect(asked).toEqual([['model-a', 'off']]);
    expect(selected.requests).toEqual([]);
    expect(harness.recovery).toEqual([
      `operation ${operationId} stopped in a tool round (waiting on: ask); resumed it`,
    ]);
  });

  it('is the selected one when its own is offered no more, and recovery says so', async () => {
    const operationId = await parkAndCrash();
    const selected = createScriptedProvider({
      id: 'other',
      modelIds: ['model-b'],
      turns: [answer('green, said model-b')],
    });
    const harness = await reopen([selected], other);
    harness.startQueue();

    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect(selected.requests.map(({ request }) => [request.modelId, request.thinkingLevel])).toEqual([
      ['model-b', 'high'],
    ]);
    expect(harness.recovery).toEqual([
      `operation ${operationId} stopped in a tool round (waiting on: ask); resumed it with the selected model ` +
        'other/model-b (its own, scripted/model-a, cannot be used: Provider "scripted" is not available)',
    ]);
  });

  it('is the one selected now for a run whose file did not keep its model, as before', async () => {
    const operationId = await parkAndCrash();
    const lines = (await readFile(bed.directory.file, 'utf8')).split('\n').map((line) => {
      if (!line.includes('"operation_started"')) return line;
      const { model: _model, thinkingLevel: _thinkingLevel, ...older } = JSON.parse(line) as Record<string, unknown>;
      return JSON.stringify(older);
    });
    await writeFile(bed.directory.file, lines.join('\n'));
    const own = createScriptedProvider({ turns: [] });
    const selected = createScriptedProvider({ id: 'other', modelIds: ['model-b'], turns: [answer('green')] });
    const harness = await reopen([own, selected], other);
    harness.startQueue();

    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect(own.requests).toEqual([]);
    expect(selected.requests).toHaveLength(1);
  });
});
