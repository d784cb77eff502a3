import { BACKGROUND_CONTEXT } from '@pi/context';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantMessage } from '@pi/agent-contract';
import type { AgentHarness } from './harness-types';
import { priced } from './model-turn';
import { openHarness } from './open-harness';
import { createScriptedProvider, createSessionDirectory, readSessionLines, testHarnessOptions } from './testing';
import type { ScriptStep } from './testing';

const usage = { input: 120, output: 30, cacheRead: 1000, cacheWrite: 0 };
let harness: AgentHarness | undefined;
let remove: (() => Promise<void>) | undefined;
afterEach(async () => {
  await harness?.close();
  await remove?.();
});

async function run(turn: ScriptStep[]): Promise<{ message: AssistantMessage | undefined; file: string }> {
  const directory = await createSessionDirectory();
  remove = () => directory.remove();
  const provider = createScriptedProvider({ turns: [turn] });
  harness = (await openHarness(testHarnessOptions({ file: directory.file, providers: [provider] })))._unsafeUnwrap();
  const accepted = await harness.main.prompt(
    [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
    BACKGROUND_CONTEXT,
  );
  await harness.main.settled(accepted._unsafeUnwrap().operationId);
  const message = harness.tree.messages().find((candidate) => candidate.role === 'assistant');
  return { message: message?.role === 'assistant' ? message : undefined, file: directory.file };
}

describe('an answer with reasoning and usage', () => {
  it('keeps the reasoning blocks in order with their signatures, and the usage, in the tree and the file', async () => {
    const { message, file } = await run([
      { type: 'thinking', text: 'Let me see.', signature: 'sig-1' },
      { type: 'text_delta', delta: 'Done.' },
      { type: 'thinking', text: '', signature: 'opaque', redacted: true },
      { type: 'usage', usage },
      { type: 'done', stopReason: 'stop' },
    ]);
    expect(message).toMatchObject({
      content: [
        { type: 'thinking', text: 'Let me see.', signature: 'sig-1' },
        { type: 'text', text: 'Done.' },
        { type: 'thinking', text: '', signature: 'opaque', redacted: true },
      ],
      usage,
    });
    const stored = (await readSessionLines(file)).filter((line) => line.kind === 'message').map((line) => line.message);
    expect(stored).toContainEqual(message);
  });

  it("keeps a tool call's signature (Gemini's thought signature) in the tree, the file, and when opened again", async () => {
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'tool_call', id: 'call-1', name: 'nothing', arguments: {}, signature: 'sig-call' },
          { type: 'done', stopReason: 'tool_calls' },
        ],
        [
          { type: 'text_delta', delta: 'Done.' },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    const directory = await createSessionDirectory();
    remove = () => directory.remove();
    const first = (
      await openHarness(testHarnessOptions({ file: directory.file, providers: [provider] }))
    )._unsafeUnwrap();
    const accepted = await first.main.prompt(
      [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
      BACKGROUND_CONTEXT,
    );
    await first.main.settled(accepted._unsafeUnwrap().operationId);
    const call = first.tree.messages().find((message) => message.role === 'assistant');
    await first.close();
    expect(call).toMatchObject({ content: [{ type: 'tool_call', id: 'call-1', signature: 'sig-call' }] });
    harness = (await openHarness(testHarnessOptions({ file: directory.file, providers: [provider] })))._unsafeUnwrap();
    expect(harness.tree.messages().find((message) => message.role === 'assistant')).toEqual(call);
  });

  it('keeps the usage and its cost when the session is opened again', async () => {
    const scripted = createScriptedProvider({
      turns: [
        [
          { type: 'text_delta', delta: 'Hi.' },
          { type: 'usage', usage },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    const cost = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
    const withPrices = { ...scripted, models: () => scripted.models().map((model) => ({ ...model, cost })) };
    const directory = await createSessionDirectory();
    remove = () => directory.remove();
    const first = (
      await openHarness(testHarnessOptions({ file: directory.file, providers: [withPrices] }))
    )._unsafeUnwrap();
    const accepted = await first.main.prompt(
      [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
      BACKGROUND_CONTEXT,
    );
    await first.main.settled(accepted._unsafeUnwrap().operationId);
    const written = first.tree.messages().at(-1);
    await first.close();
    expect(written).toMatchObject({ usage: { ...usage, cost: expect.any(Number) } });

    harness = (
      await openHarness(testHarnessOptions({ file: directory.file, providers: [withPrices] }))
    )._unsafeUnwrap();
    expect(harness.tree.messages().at(-1)).toEqual(written);
  });

  it('has no usage when the provider reported none', async () => {
    const { message } = await run([
      { type: 'text_delta', delta: 'Hi.' },
      { type: 'done', stopReason: 'stop' },
    ]);
    expect(message).not.toHaveProperty('usage');
  });
});

describe('priced', () => {
  const provider = createScriptedProvider({ turns: [] });
  const withPrices = {
    ...provider,
    models: () => [
      {
        ...provider.models()[0],
        provider: 'scripted',
        modelId: 'model-a',
        name: 'a',
        reasoning: false,
        cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
      },
    ],
  };

  it("adds the request's cost in dollars from the model's prices per million tokens", () => {
    const tokens = { input: 1_000_000, output: 100_000, cacheRead: 2_000_000, cacheWrite: 400_000 };
    expect(priced(tokens, withPrices, 'model-a').cost).toBeCloseTo(3 + 1.5 + 0.6 + 1.5, 10);
  });

  it('leaves the cost out when the catalogue has no prices, whatever the provider claimed', () => {
    expect(priced({ ...usage, cost: 99 }, provider, 'model-a')).toEqual(usage);
  });
});
