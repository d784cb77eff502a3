import { BACKGROUND_CONTEXT } from '@pi/context';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentHarness } from './harness-types';
import type { ToolResultMessage, UserMessage } from '@pi/agent-contract';
import { openHarness } from './open-harness';
import type { ScriptStep } from './testing';
import {
  createDeferred,
  createScriptedProvider,
  createSessionDirectory,
  nextEvent,
  testHarnessOptions,
  type SessionDirectory,
} from './testing';
import type { AgentTool, AnyAgentTool } from '@pi/agent-contract';

const hello: UserMessage = { role: 'user', content: [{ type: 'text', text: 'go' }] };

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

/** A model that calls the given tools in one message, then answers "ok" once it has their results. */
function callsThenAnswers(
  calls: Array<{ id: string; name: string; arguments: Record<string, unknown> }>,
): ScriptStep[][] {
  return [
    [
      ...calls.map((call) => ({ type: 'tool_call' as const, ...call, arguments: call.arguments as never })),
      { type: 'done', stopReason: 'tool_calls' },
    ],
    [
      { type: 'text_delta', delta: 'ok' },
      { type: 'done', stopReason: 'stop' },
    ],
  ];
}

async function run(
  turns: ScriptStep[][],
  tools: AnyAgentTool[],
): Promise<{ results: ToolResultMessage[]; harness: AgentHarness }> {
  const provider = createScriptedProvider({ turns });
  harness = (
    await openHarness(testHarnessOptions({ file: directory.file, providers: [provider], tools }))
  )._unsafeUnwrap();
  const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
  expect((await harness.main.settled(operationId)).outcome).toBe('completed');
  const results = harness.tree.messages().filter((message): message is ToolResultMessage => message.role === 'tool');
  return { results, harness };
}

function textOf(result: ToolResultMessage | undefined): string {
  return result?.content.map((part) => part.text).join('') ?? '';
}

/** A tool that logs when it starts and ends, waits on `gates[id]` (if any) in between, then calls `onEnd`. */
function loggingTool(
  name: string,
  executionMode: 'sequential' | 'parallel',
  log: string[],
  gates: Record<string, Promise<void>> = {},
  onEnd: (id: string) => void = () => undefined,
): AgentTool<{ id: string }> {
  return {
    name,
    label: name,
    description: `logs ${name}`,
    executionMode,
    parameters: z.object({ id: z.string() }),
    async execute({ id }) {
      log.push(`start ${id}`);
      await gates[id];
      log.push(`end ${id}`);
      onEnd(id);
      return { content: [{ type: 'text', text: `done ${id}` }], details: { id } };
    },
  };
}

describe('tool calls', () => {
  it('runs a tool, appends its result and sends it back to the model with the tool schemas', async () => {
    const echo: AgentTool<{ text: string }> = {
      name: 'echo',
      label: 'Echo',
      description: 'Echoes text',
      executionMode: 'sequential',
      parameters: z.object({ text: z.string() }),
      execute: async ({ text }) => ({ content: [{ type: 'text', text }], details: { length: text.length } }),
    };
    const provider = createScriptedProvider({
      turns: callsThenAnswers([{ id: 'c1', name: 'echo', arguments: { text: 'hi' } }]),
    });
    harness = (
      await openHarness(testHarnessOptions({ file: directory.file, providers: [provider], tools: [echo] }))
    )._unsafeUnwrap();

    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.settled(operationId);

    const second = provider.requests[1]?.request;
    expect(second?.messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'c1',
      toolName: 'echo',
      content: [{ type: 'text', text: 'hi' }],
      details: { length: 2 },
      isError: false,
    });
    expect(second?.tools).toEqual([
      {
        name: 'echo',
        description: 'Echoes text',
        parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      },
    ]);
  });

  it('runs sequential tools one at a time in call order', async () => {
    const log: string[] = [];
    const gate = createDeferred<void>();
    const tool = loggingTool('step', 'sequential', log, { a: gate.promise });
    const provider = createScriptedProvider({
      turns: callsThenAnswers([
        { id: 'a', name: 'step', arguments: { id: 'a' } },
        { id: 'b', name: 'step', arguments: { id: 'b' } },
      ]),
    });
    harness = (
      await openHarness(testHarnessOptions({ file: directory.file, providers: [provider], tools: [tool] }))
    )._unsafeUnwrap();
    const started = nextEvent(harness, 'tool_started', (event) => event.toolCallId === 'a');
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await started;
    // Give a concurrent start of b every chance to happen before a is released.
    for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(['start a']);

    gate.resolve();
    await harness.main.settled(operationId);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('runs parallel tools of one message concurrently and still records results in call order', async () => {
    const log: string[] = [];
    const slow = createDeferred<void>();
    // b finishing is what releases a: if the calls did not overlap, a would wait forever.
    const tool = loggingTool('fetch', 'parallel', log, { a: slow.promise }, (id) => id === 'b' && slow.resolve());
    const provider = createScriptedProvider({
      turns: callsThenAnswers([
        { id: 'a', name: 'fetch', arguments: { id: 'a' } },
        { id: 'b', name: 'fetch', arguments: { id: 'b' } },
      ]),
    });
    harness = (
      await openHarness(testHarnessOptions({ file: directory.file, providers: [provider], tools: [tool] }))
    )._unsafeUnwrap();
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.settled(operationId);

    expect(log).toEqual(['start a', 'start b', 'end b', 'end a']);
    const results = harness.tree.messages().filter((message) => message.role === 'tool');
    expect(results.map((result) => result.toolCallId)).toEqual(['a', 'b']);
  });

  it('reports invalid arguments as an error result without running the tool', async () => {
    const log: string[] = [];
    const { results } = await run(callsThenAnswers([{ id: 'c', name: 'step', arguments: { id: 42 } }]), [
      loggingTool('step', 'sequential', log),
    ]);
    expect(results[0]?.isError).toBe(true);
    expect(textOf(results[0])).toContain('Invalid arguments for step');
    expect(log).toEqual([]);
  });

  it('reports an unknown tool as an error result', async () => {
    const { results } = await run(callsThenAnswers([{ id: 'c', name: 'nope', arguments: {} }]), []);
    expect(results).toEqual([
      {
        role: 'tool',
        toolCallId: 'c',
        toolName: 'nope',
        content: [{ type: 'text', text: 'Unknown tool "nope"' }],
        details: null,
        isError: true,
      },
    ]);
  });

  it('turns a throwing tool into an error result carrying its message', async () => {
    const broken: AgentTool<Record<string, never>> = {
      name: 'broken',
      label: 'Broken',
      description: 'always fails',
      executionMode: 'sequential',
      parameters: z.object({}),
      execute: async () => {
        throw new Error('disk on fire');
      },
    };
    const { results } = await run(callsThenAnswers([{ id: 'c', name: 'broken', arguments: {} }]), [broken]);
    expect(results[0]?.isError).toBe(true);
    expect(textOf(results[0])).toBe('Tool broken failed: disk on fire');
  });

  it('rejects a tool result that is not strict JSON as an error result', async () => {
    const odd: AgentTool<Record<string, never>> = {
      name: 'odd',
      label: 'Odd',
      description: 'returns a Date',
      executionMode: 'sequential',
      parameters: z.object({}),
      execute: async () => ({ content: [], details: new Date(0) as never }),
    };
    const { results } = await run(callsThenAnswers([{ id: 'c', name: 'odd', arguments: {} }]), [odd]);
    expect(results[0]?.isError).toBe(true);
    expect(textOf(results[0])).toContain('returned an invalid result');
  });
});

describe('before_tool hooks', () => {
  async function runWithHook(
    hook: Parameters<AgentHarness['hooks']['beforeTool']>[0],
  ): Promise<{ results: ToolResultMessage[]; log: string[] }> {
    const log: string[] = [];
    const provider = createScriptedProvider({
      turns: callsThenAnswers([{ id: 'c', name: 'step', arguments: { id: 'c' } }]),
    });
    harness = (
      await openHarness(
        testHarnessOptions({
          file: directory.file,
          providers: [provider],
          tools: [loggingTool('step', 'sequential', log)],
        }),
      )
    )._unsafeUnwrap();
    harness.hooks.beforeTool(hook);
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.settled(operationId);
    return {
      results: harness.tree.messages().filter((message): message is ToolResultMessage => message.role === 'tool'),
      log,
    };
  }

  it('blocks a call when a hook returns { block }, with the reason in the error result', async () => {
    const { results, log } = await runWithHook(() => ({ block: 'not in this directory' }));
    expect(log).toEqual([]);
    expect(results[0]?.isError).toBe(true);
    expect(textOf(results[0])).toBe('Tool call blocked by a before_tool hook: not in this directory');
  });

  it('fails closed: a hook that throws blocks the call', async () => {
    const { results, log } = await runWithHook(async () => {
      throw new Error('policy service down');
    });
    expect(log).toEqual([]);
    expect(results[0]?.isError).toBe(true);
    expect(textOf(results[0])).toContain('policy service down');
  });

  it('shows hooks the call and lets it run when every hook returns nothing', async () => {
    const seen: unknown[] = [];
    const { results, log } = await runWithHook((call) => {
      seen.push({ name: call.toolName, id: call.toolCallId, args: call.arguments });
    });
    expect(seen).toEqual([{ name: 'step', id: 'c', args: { id: 'c' } }]);
    expect(log).toEqual(['start c', 'end c']);
    expect(results[0]?.isError).toBe(false);
  });

  it('runs hooks in registration order, and a disposed hook no longer runs', async () => {
    const order: string[] = [];
    const provider = createScriptedProvider({
      turns: callsThenAnswers([{ id: 'c', name: 'step', arguments: { id: 'c' } }]),
    });
    harness = (
      await openHarness(
        testHarnessOptions({
          file: directory.file,
          providers: [provider],
          tools: [loggingTool('step', 'sequential', [])],
        }),
      )
    )._unsafeUnwrap();
    harness.hooks.beforeTool(() => void order.push('first'));
    const dispose = harness.hooks.beforeTool(() => ({ block: 'removed hook ran' }));
    harness.hooks.beforeTool(() => void order.push('third'));
    dispose();

    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.settled(operationId);

    expect(order).toEqual(['first', 'third']);
    expect(harness.tree.messages().find((message) => message.role === 'tool')?.isError).toBe(false);
  });
});
