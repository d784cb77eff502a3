import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import type { UserMessage } from '@pi/agent-contract';
import type { AgentHarness } from './harness-types';
import { openHarness } from './open-harness';
import {
  createDeferred,
  createScriptedProvider,
  harnessTestBed,
  testHarnessOptions,
  textAnswer,
  windowedProvider,
} from './testing';
import { estimateMessagesTokens } from './token-estimate';

const text = (body: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text: body }] });
/** A message estimated at exactly `tokens` tokens (characters / 4 of its JSON). */
function messageOf(tokens: number): UserMessage {
  const frame = estimateMessagesTokens([text('')]);
  return text('x'.repeat((tokens - frame) * 4));
}

const bed = harnessTestBed();

async function openWith(contextWindow: number | undefined, answer = textAnswer('ok')): Promise<AgentHarness> {
  const provider = windowedProvider({
    ...(contextWindow === undefined ? {} : { contextWindow }),
    answer: () => answer,
  });
  const harness = (
    await openHarness(testHarnessOptions({ file: bed.directory.file, providers: [provider] }))
  )._unsafeUnwrap();
  bed.open.push(harness);
  return harness;
}

describe('a prompt larger than the context window', () => {
  it('is refused with its estimate and the window, and nothing is recorded', async () => {
    const harness = await openWith(1000);
    const refused = await harness.main.prompt([messageOf(1001)], BACKGROUND_CONTEXT);
    expect(refused._unsafeUnwrapErr()).toEqual({
      code: 'too_large',
      tokens: 1001,
      contextWindow: 1000,
      message:
        'The prompt is ~1,001 tokens; the context window of windowed/small holds 1,000: shorten it, or pick a model with a larger window',
    });
    expect(harness.tree.entries()).toEqual([]);
    expect(harness.main.running).toBeNull();
  });

  it('one that just fits is accepted, and so is any prompt when the window is unknown', async () => {
    const fits = await openWith(1000);
    const accepted = (await fits.main.prompt([messageOf(1000)], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await fits.main.settled(accepted.operationId);
    await fits.close();
    const unknown = await openWith(undefined);
    expect((await unknown.main.prompt([messageOf(5000)], BACKGROUND_CONTEXT)).isOk()).toBe(true);
  });

  it('is refused as a steer or a follow-up too, while a run is in progress', async () => {
    const release = createDeferred<void>();
    const scripted = createScriptedProvider({
      turns: [[{ type: 'wait', until: release.promise }, ...textAnswer('ok')]],
    });
    const provider = {
      ...scripted,
      models: () => scripted.models().map((model) => ({ ...model, contextWindow: 1000 })),
    };
    const harness = (
      await openHarness(testHarnessOptions({ file: bed.directory.file, providers: [provider] }))
    )._unsafeUnwrap();
    bed.open.push(harness);
    const { operationId } = (await harness.main.prompt([text('go')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    for (const send of [harness.main.steer.bind(harness.main), harness.main.followUp.bind(harness.main)]) {
      const refused = await send(messageOf(2000), BACKGROUND_CONTEXT);
      expect(refused._unsafeUnwrapErr()).toMatchObject({ code: 'too_large', tokens: 2000, contextWindow: 1000 });
    }
    expect(harness.main.running).toBe(operationId);
    expect(harness.main.queue).toEqual([]);
    release.resolve();
    await harness.main.settled(operationId);
  });
});
