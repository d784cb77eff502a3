import { BACKGROUND_CONTEXT } from '@pi/context';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AfterToolHook, AnyAgentTool, TextPart, ToolResultMessage, UserMessage } from '@pi/agent-contract';
import type { HookFailure } from './hook-caller';
import type { AgentHarness } from './harness-types';
import { openHarness } from './open-harness';
import {
  createDeferred,
  createScriptedProvider,
  createSessionDirectory,
  readSessionLines,
  recordEvents,
  testHarnessOptions,
  type ScriptedProvider,
  type SessionDirectory,
} from './testing';

const hello: UserMessage = { role: 'user', content: [{ type: 'text', text: 'go' }] };
const echo: AnyAgentTool = {
  name: 'echo',
  label: 'Echo',
  description: 'echoes',
  executionMode: 'sequential',
  parameters: z.object({}),
  execute: async () => ({ content: [{ type: 'text', text: 'raw output' }], details: { lines: 1 } }),
};
/** Plugin ranks as a manifest gives them: a composes before b before c, whatever order they register in. */
const ranks: Record<string, number> = { '@t/a': 0, '@t/b': 1, '@t/c': 2 };

let directory: SessionDirectory;
let harness: AgentHarness | undefined;
let failures: HookFailure[];

beforeEach(async () => {
  directory = await createSessionDirectory();
  failures = [];
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await directory.remove();
});

/** A model that calls `tool` once, then answers "ok". */
function callingProvider(tool = 'echo'): ScriptedProvider {
  return createScriptedProvider({
    turns: [
      [
        { type: 'tool_call', id: 'c1', name: tool, arguments: {} },
        { type: 'done', stopReason: 'tool_calls' },
      ],
      [
        { type: 'text_delta', delta: 'ok' },
        { type: 'done', stopReason: 'stop' },
      ],
    ],
  });
}

/** The harness over `provider` with hooks ranked by `ranks`, failures recorded, and a short hook deadline. */
async function open(provider: ScriptedProvider, timeoutMs = 50): Promise<AgentHarness> {
  const options = testHarnessOptions({ file: directory.file, providers: [provider], tools: [echo] });
  harness = (
    await openHarness({
      ...options,
      hooks: { ownerRank: (owner) => ranks[owner] ?? Number.NaN, onFailure: (f) => failures.push(f), timeoutMs },
    })
  )._unsafeUnwrap();
  return harness;
}

async function runToEnd(harness: AgentHarness): Promise<string> {
  const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
  return (await harness.main.settled(operationId)).outcome;
}

const toolResult = (harness: AgentHarness): ToolResultMessage | undefined =>
  harness.tree.messages().find((message): message is ToolResultMessage => message.role === 'tool');
const text = (result: { content: readonly { text: string }[] } | undefined) =>
  result?.content.map((part) => part.text).join('');

describe('after_tool hooks', () => {
  it('rewrite the result that the session file, the events and the next model request see', async () => {
    const provider = callingProvider();
    const harness = await open(provider);
    const events = recordEvents(harness);
    harness.hooks.afterTool(
      (call, result) => ({
        content: [{ type: 'text', text: `${call.toolName}: ${text(result)} (trimmed)` }],
        details: null,
      }),
      '@t/a',
    );
    expect(await runToEnd(harness)).toBe('completed');

    const rewritten = {
      content: [{ type: 'text', text: 'echo: raw output (trimmed)' }],
      details: null,
      isError: false,
    };
    expect(toolResult(harness)).toMatchObject(rewritten);
    const lines = await readSessionLines(directory.file);
    const stored = lines.find((line) => (line.message as { role?: string } | undefined)?.role === 'tool');
    expect(stored?.message).toMatchObject(rewritten);
    const appended = events.flatMap((event) =>
      event.type === 'entry_appended' && event.entry.kind === 'message' && event.entry.message.role === 'tool'
        ? [event.entry.message]
        : [],
    );
    expect(appended).toEqual([expect.objectContaining(rewritten)]);
    const sent = provider.requests[1]?.request.messages.find((message) => message.role === 'tool');
    expect(sent).toMatchObject(rewritten);
  });

  it('compose in manifest order, each seeing the result the earlier ones left, and keep what a rewrite leaves out', async () => {
    const harness = await open(callingProvider());
    const seen: string[] = [];
    const appending =
      (owner: string): AfterToolHook =>
      (_call, result) => {
        seen.push(`${owner} saw "${text(result)}"`);
        return { content: [{ type: 'text', text: `${text(result)} +${owner}` }] };
      };
    harness.hooks.afterTool(appending('@t/c'), '@t/c');
    harness.hooks.afterTool(appending('@t/a'), '@t/a');
    harness.hooks.afterTool(() => ({ isError: true }), '@t/b');
    expect(await runToEnd(harness)).toBe('completed');

    expect(seen).toEqual(['@t/a saw "raw output"', '@t/c saw "raw output +@t/a"']);
    expect(toolResult(harness)).toMatchObject({
      content: [{ type: 'text', text: 'raw output +@t/a +@t/c' }],
      details: { lines: 1 },
      isError: true,
    });
  });

  it.each<[string, AfterToolHook, string]>([
    [
      'throws',
      () => {
        throw new Error('boom');
      },
      'after_tool hook threw: boom',
    ],
    ['rejects', async () => Promise.reject(new Error('no index')), 'after_tool hook rejected: no index'],
    ['misses its deadline', () => new Promise(() => undefined), 'after_tool hook did not finish within 50 ms'],
    [
      'returns an unknown key',
      () => ({ content: [], extra: 1 }) as never,
      'after_tool hook returned a malformed rewrite',
    ],
    [
      'mutates the frozen result instead of returning a rewrite',
      (_call, result) => void (result.content as unknown as TextPart[]).push({ type: 'text', text: 'x' }),
      'after_tool hook threw:',
    ],
  ])('are skipped and reported with their plugin when one %s; the run goes on', async (_, failing, message) => {
    const harness = await open(callingProvider());
    harness.hooks.afterTool(failing, '@t/a');
    harness.hooks.afterTool((_call, result) => ({ content: [{ type: 'text', text: `${text(result)}!` }] }), '@t/b');
    expect(await runToEnd(harness)).toBe('completed');

    expect(text(toolResult(harness))).toBe('raw output!');
    expect(failures).toEqual([{ owner: '@t/a', hook: 'after_tool', message: expect.stringContaining(message) }]);
  });

  it('also see the results the harness made itself, such as an unknown tool', async () => {
    const harness = await open(callingProvider('nope'));
    const calls: string[] = [];
    harness.hooks.afterTool((call, result) => void calls.push(`${call.toolName} ${String(result.isError)}`));
    expect(await runToEnd(harness)).toBe('completed');
    expect(calls).toEqual(['nope true']);
  });

  it('stop running once removed: each remover removes exactly its own registration', async () => {
    const harness = await open(callingProvider());
    const order: string[] = [];
    harness.hooks.afterTool(() => void order.push('first'), '@t/a');
    const remove = harness.hooks.afterTool(() => ({ content: [{ type: 'text', text: 'removed hook ran' }] }), '@t/b');
    harness.hooks.afterTool(() => void order.push('third'), '@t/c');
    remove();
    remove();
    expect(await runToEnd(harness)).toBe('completed');
    expect(order).toEqual(['first', 'third']);
    expect(text(toolResult(harness))).toBe('raw output');
  });

  it('are abandoned, not reported, when the run is aborted while one is pending', async () => {
    const harness = await open(callingProvider(), 60_000);
    const entered = createDeferred<void>();
    harness.hooks.afterTool(() => {
      entered.resolve();
      return new Promise(() => undefined);
    }, '@t/a');
    const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await entered.promise;
    (await harness.main.requestAbort(operationId, BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect((await harness.main.settled(operationId)).outcome).toBe('aborted');
    expect(text(toolResult(harness))).toBe('raw output');
    expect(failures).toEqual([]);
  });
});
