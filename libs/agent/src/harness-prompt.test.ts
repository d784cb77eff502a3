import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import type { AgentHarness } from './harness-types';
import type { RunSettings } from '@pi/agent-contract';
import type { UserMessage } from '@pi/agent-contract';
import { openHarness } from './open-harness';
import {
  createDeferred,
  createScriptedProvider,
  harnessTestBed,
  nextEvent,
  readSessionLines,
  recordEvents,
  testHarnessOptions,
} from './testing';

const hello: UserMessage = { role: 'user', content: [{ type: 'text', text: 'hello' }] };

const bed = harnessTestBed();
const open = bed.open;

async function openWith(setup: Omit<Parameters<typeof testHarnessOptions>[0], 'file'>): Promise<AgentHarness> {
  const harness = (await openHarness(testHarnessOptions({ file: bed.directory.file, ...setup })))._unsafeUnwrap();
  open.push(harness);
  return harness;
}

describe('prompt on the main lane', () => {
  it('streams text deltas, appends the final assistant entry and settles completed', async () => {
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'text_delta', delta: 'Hel' },
          { type: 'text_delta', delta: 'lo!' },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    const harness = await openWith({ providers: [provider] });
    const events = recordEvents(harness);

    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'completed', error: null });

    expect(events.filter((event) => event.type === 'text_delta').map((event) => event.delta)).toEqual(['Hel', 'lo!']);
    expect(events.map((event) => event.type)).toEqual([
      'entry_appended', // operation_started
      'entry_appended', // the user message
      'run_started',
      'text_delta',
      'text_delta',
      'entry_appended', // the assistant message
      'entry_appended', // operation_settled
      'run_settled',
    ]);
    expect(harness.tree.messages()).toEqual([
      hello,
      { role: 'assistant', content: [{ type: 'text', text: 'Hello!' }], model: 'scripted/model-a', stopReason: 'stop' },
    ]);
    const kinds = (await readSessionLines(bed.directory.file)).map((line) => line['kind'] ?? line['type']);
    expect(kinds).toEqual(['session', 'operation_started', 'message', 'message', 'operation_settled']);
    expect(harness.main.running).toBeNull();
  });

  it('sends the branch messages and the model chosen in settings to the provider', async () => {
    const provider = createScriptedProvider({
      modelIds: ['small', 'large'],
      turns: [[{ type: 'done', stopReason: 'stop' }]],
    });
    const settings = {
      current: { model: { provider: 'scripted', modelId: 'large' }, thinkingLevel: 'high' } satisfies RunSettings,
    };
    const harness = await openWith({ providers: [provider], settings });

    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.settled(operationId);

    expect(provider.requests[0]?.request).toEqual({
      modelId: 'large',
      messages: [hello],
      tools: [],
      thinkingLevel: 'high',
    });
  });

  it('rejects a second prompt with busy while a run is active, naming the running operation', async () => {
    const gate = createDeferred<void>();
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'wait', until: gate.promise },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    const harness = await openWith({ providers: [provider] });

    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    const second = await harness.main.prompt([hello], BACKGROUND_CONTEXT);

    expect(second._unsafeUnwrapErr()).toMatchObject({ code: 'busy', operationId });
    expect(harness.main.running).toBe(operationId);
    gate.resolve();
    expect((await harness.main.settled(operationId)).outcome).toBe('completed');
  });

  it('rejects with no_model when no model is selected, or the selected one is unknown, and writes nothing', async () => {
    const provider = createScriptedProvider({ turns: [] });
    const settings: { current: RunSettings } = { current: { model: null, thinkingLevel: 'off' } };
    const harness = await openWith({ providers: [provider], settings });

    expect((await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe('no_model');
    settings.current = { model: { provider: 'scripted', modelId: 'missing' }, thinkingLevel: 'off' };
    expect((await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe('no_model');
    settings.current = { model: { provider: 'elsewhere', modelId: 'model-a' }, thinkingLevel: 'off' };
    expect((await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe('no_model');

    expect(harness.tree.entries()).toEqual([]);
    expect(await readSessionLines(bed.directory.file)).toHaveLength(1);
  });

  it.each([
    ['no messages', []],
    ['a message without text', [{ role: 'user', content: [] }]],
    ['a message of blank text', [{ role: 'user', content: [{ type: 'text', text: '  ' }] }]],
    [
      'an assistant message',
      [{ role: 'assistant', content: [{ type: 'text', text: 'hi' }], model: 'x', stopReason: 'stop' }],
    ],
  ])('rejects %s as invalid_message', async (_name, messages) => {
    const harness = await openWith({ providers: [createScriptedProvider({ turns: [] })] });
    const result = await harness.main.prompt(messages as UserMessage[], BACKGROUND_CONTEXT);
    expect(result._unsafeUnwrapErr().code).toBe('invalid_message');
    expect(harness.tree.entries()).toEqual([]);
  });

  it('uses the settings read at acceptance for the whole run, even when they change mid-run', async () => {
    const gate = createDeferred<void>();
    const first = createScriptedProvider({
      id: 'first',
      turns: [
        [
          { type: 'wait', until: gate.promise },
          { type: 'tool_call', id: 'c1', name: 'missing', arguments: {} },
          { type: 'done', stopReason: 'tool_calls' },
        ],
        [
          { type: 'text_delta', delta: 'done' },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    const second = createScriptedProvider({ id: 'second', turns: [] });
    const settings: { current: RunSettings } = {
      current: { model: { provider: 'first', modelId: 'model-a' }, thinkingLevel: 'low' },
    };
    let reads = 0;
    const options = testHarnessOptions({ file: bed.directory.file, providers: [first, second], settings });
    const harness = (
      await openHarness({ ...options, settings: () => ((reads += 1), settings.current) })
    )._unsafeUnwrap();
    open.push(harness);

    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    settings.current = { model: { provider: 'second', modelId: 'model-a' }, thinkingLevel: 'high' };
    gate.resolve();
    expect((await harness.main.settled(operationId)).outcome).toBe('completed');

    expect(reads).toBe(1);
    expect(first.requests.map(({ request }) => [request.modelId, request.thinkingLevel])).toEqual([
      ['model-a', 'low'],
      ['model-a', 'low'],
    ]);
    expect(second.requests).toEqual([]);
    const models = harness.tree.messages().flatMap((message) => (message.role === 'assistant' ? [message.model] : []));
    expect(models).toEqual(['first/model-a', 'first/model-a']);
  });

  it('settles failed with the provider message when the provider fails', async () => {
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'text_delta', delta: 'partial' },
          { type: 'fail', error: new Error('HTTP 529: overloaded') },
        ],
      ],
    });
    const harness = await openWith({ providers: [provider] });

    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();

    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'failed', error: 'HTTP 529: overloaded' });
    expect(harness.tree.messages().at(-1)).toMatchObject({
      role: 'assistant',
      stopReason: 'error',
      content: [{ text: 'partial' }],
    });
  });

  it('settles failed, durably, when the run itself throws (a tools registry that fails)', async () => {
    const provider = createScriptedProvider({ turns: [] });
    const options = testHarnessOptions({ file: bed.directory.file, providers: [provider] });
    const harness = (
      await openHarness({
        ...options,
        tools: () => {
          throw new Error('registry rebuild failed');
        },
      })
    )._unsafeUnwrap();
    open.push(harness);

    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();

    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'failed', error: 'registry rebuild failed' });
    expect((await readSessionLines(bed.directory.file)).at(-1)).toMatchObject({
      kind: 'operation_settled',
      outcome: 'failed',
    });
  });

  it('stops after maxTurns and settles completed', async () => {
    const call = (id: string) =>
      [
        { type: 'tool_call', id, name: 'missing', arguments: {} },
        { type: 'done', stopReason: 'tool_calls' },
      ] as const;
    const provider = createScriptedProvider({ turns: [call('a'), call('b'), call('c')] });
    const harness = await openWith({ providers: [provider], maxTurns: 2 });

    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();

    expect((await harness.main.settled(operationId)).outcome).toBe('completed');
    expect(provider.requests).toHaveLength(2);
  });

  it('lets a listener that throws change nothing for the run or for other listeners', async () => {
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'text_delta', delta: 'x' },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    const harness = await openWith({ providers: [provider] });
    harness.events.subscribe(() => {
      throw new Error('listener bug');
    });
    const settledEvent = nextEvent(harness, 'run_settled');

    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();

    expect((await settledEvent).outcome.outcome).toBe('completed');
    expect((await harness.main.settled(operationId)).outcome).toBe('completed');
  });

  it('stops delivering to a listener once its subscription is disposed, and only to it', async () => {
    const provider = createScriptedProvider({ turns: [[{ type: 'done', stopReason: 'stop' }]] });
    const harness = await openWith({ providers: [provider] });
    const kept: string[] = [];
    const dropped: string[] = [];
    harness.events.subscribe((event) => kept.push(event.type));
    const listener = (event: { type: string }) => dropped.push(event.type);
    harness.events.subscribe(listener);
    const dispose = harness.events.subscribe(listener);
    dispose();

    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.settled(operationId);

    expect(kept.length).toBeGreaterThan(0);
    expect(dropped).toEqual(kept);
  });
});
