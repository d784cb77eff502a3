import { BACKGROUND_CONTEXT } from '@pi/context';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentMessage, BeforeModelRequestHook, ModelRequestInfo, UserMessage } from '@pi/agent-contract';
import type { HookFailure } from './hook-caller';
import type { AgentHarness } from './harness-types';
import { openHarness } from './open-harness';
import {
  createScriptedProvider,
  createSessionDirectory,
  readSessionLines,
  testHarnessOptions,
  type ScriptedProvider,
  type SessionDirectory,
} from './testing';

const hello: UserMessage = { role: 'user', content: [{ type: 'text', text: 'go' }] };
const note = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const ranks: Record<string, number> = { '@t/a': 0, '@t/b': 1 };

let directory: SessionDirectory;
let harness: AgentHarness;
let provider: ScriptedProvider;
let failures: HookFailure[];

beforeEach(async () => {
  directory = await createSessionDirectory();
  failures = [];
  provider = createScriptedProvider({
    turns: [
      [
        { type: 'text_delta', delta: 'ok' },
        { type: 'done', stopReason: 'stop' },
      ],
    ],
  });
  harness = (
    await openHarness({
      ...testHarnessOptions({ file: directory.file, providers: [provider] }),
      hooks: { ownerRank: (owner) => ranks[owner] ?? Number.NaN, onFailure: (f) => failures.push(f), timeoutMs: 50 },
    })
  )._unsafeUnwrap();
});
afterEach(async () => {
  await harness.close();
  await directory.remove();
});

async function runToEnd(): Promise<string> {
  const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
  return (await harness.main.settled(operationId)).outcome;
}

const sentMessages = (): readonly AgentMessage[] => provider.requests[0]?.request.messages ?? [];
const textsOf = (messages: readonly AgentMessage[]) =>
  messages.map((message) => message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));

describe('before_model_request hooks', () => {
  it('change what one request sends, and neither the session tree nor the file', async () => {
    let seen: ModelRequestInfo | undefined;
    harness.hooks.beforeModelRequest((request) => {
      seen = request;
      return { messages: [note('context: the repo uses tabs'), ...request.messages] };
    }, '@t/a');
    expect(await runToEnd()).toBe('completed');

    expect(textsOf(sentMessages())).toEqual(['context: the repo uses tabs', 'go']);
    expect(seen).toMatchObject({ turn: 0, model: { provider: 'scripted', modelId: 'model-a' }, thinkingLevel: 'off' });
    expect(textsOf(harness.tree.messages())).toEqual(['go', 'ok']);
    const stored = (await readSessionLines(directory.file)).filter((line) => line.kind === 'message');
    expect(stored.map((line) => line.message)).toEqual(harness.tree.messages());
  });

  it('compose in manifest order, each seeing the messages the earlier ones left', async () => {
    const seen: string[][] = [];
    const prepending =
      (text: string): BeforeModelRequestHook =>
      (request) => {
        seen.push(textsOf(request.messages));
        return { messages: [note(text), ...request.messages] };
      };
    harness.hooks.beforeModelRequest(prepending('from b'), '@t/b');
    harness.hooks.beforeModelRequest(prepending('from a'), '@t/a');
    expect(await runToEnd()).toBe('completed');

    expect(seen).toEqual([['go'], ['from a', 'go']]);
    expect(textsOf(sentMessages())).toEqual(['from b', 'from a', 'go']);
  });

  it.each<[string, BeforeModelRequestHook, string]>([
    [
      'throws',
      () => {
        throw new Error('boom');
      },
      'before_model_request hook threw: boom',
    ],
    [
      'misses its deadline',
      () => new Promise(() => undefined),
      'before_model_request hook did not finish within 50 ms',
    ],
    ['returns garbage', () => ({ messages: [{ role: 'system', text: 'hi' }] }) as never, 'malformed rewrite'],
    ['returns no messages', () => ({ messages: [] }), 'malformed rewrite'],
    ['returns a bare array', (request) => [...request.messages] as never, 'malformed rewrite'],
    ['returns an empty rewrite', () => ({}), 'names systemPrompt, messages or both'],
    ['returns a system prompt that is not text', () => ({ systemPrompt: 42 }) as never, 'malformed rewrite'],
    [
      'changes the frozen messages in place',
      (request) => void (request.messages as AgentMessage[]).push(note('sneaky')),
      'before_model_request hook threw:',
    ],
  ])('are skipped and reported when one %s: the messages go on unchanged', async (_, failing, message) => {
    harness.hooks.beforeModelRequest(failing, '@t/a');
    harness.hooks.beforeModelRequest((request) => ({ messages: [...request.messages, note('from b')] }), '@t/b');
    expect(await runToEnd()).toBe('completed');

    expect(textsOf(sentMessages())).toEqual(['go', 'from b']);
    expect(failures).toEqual([
      { owner: '@t/a', hook: 'before_model_request', message: expect.stringContaining(message) },
    ]);
  });

  it('set the system prompt the provider receives, each seeing what the earlier ones left', async () => {
    const seen: string[] = [];
    harness.hooks.beforeModelRequest((request) => {
      seen.push(request.systemPrompt);
      return { systemPrompt: 'You are pi.' };
    }, '@t/a');
    harness.hooks.beforeModelRequest((request) => {
      seen.push(request.systemPrompt);
      return { systemPrompt: `${request.systemPrompt}\nUse tabs.` };
    }, '@t/b');
    expect(await runToEnd()).toBe('completed');

    expect(seen).toEqual(['', 'You are pi.']);
    expect(provider.requests[0]?.request.systemPrompt).toBe('You are pi.\nUse tabs.');
    expect(textsOf(sentMessages())).toEqual(['go']);
    expect(JSON.stringify(await readSessionLines(directory.file))).not.toContain('You are pi.');
  });

  it('leave a request without a system prompt when none sets one', async () => {
    harness.hooks.beforeModelRequest((request) => ({ messages: [...request.messages] }), '@t/a');
    expect(await runToEnd()).toBe('completed');
    expect(provider.requests[0]?.request).not.toHaveProperty('systemPrompt');
  });

  it('stop running once removed', async () => {
    const remove = harness.hooks.beforeModelRequest(() => ({ messages: [note('removed')] }), '@t/a');
    remove();
    expect(await runToEnd()).toBe('completed');
    expect(textsOf(sentMessages())).toEqual(['go']);
  });
});
