import { BACKGROUND_CONTEXT } from '@pi/context';
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { providerErrorText } from './error-text';
import type { AgentHarness } from './harness-types';
import type { UserMessage } from '@pi/agent-contract';
import { openHarness } from './open-harness';
import type { ModelProvider } from './provider';
import { createScriptedProvider, createSessionDirectory, recordEvents, testHarnessOptions } from './testing';
import type { SessionDirectory } from './testing';

const hello: UserMessage = { role: 'user', content: [{ type: 'text', text: 'hello' }] };
const openAiKey = 'sk-proj-AbCdEf0123456789xyz';

describe('providerErrorText', () => {
  it.each([
    [`Incorrect API key provided: ${openAiKey}.`, 'Incorrect API key provided: [redacted].'],
    ['header Authorization: Bearer tok3n-value-xyz rejected', 'header Authorization: Bearer [redacted] rejected'],
    ['cannot reach https://me:hunter22@llm.example/v1', 'cannot reach https://[redacted]@llm.example/v1'],
    ['GET /v1/models?api_key=abc123&x=1 failed', 'GET /v1/models?api_key=[redacted]&x=1 failed'],
    ['Google said AIzaSyA0123456789abcdefghijklmnopqrstu', 'Google said [redacted]'],
  ])('removes what looks like a credential from %j', (thrown, recorded) => {
    expect(providerErrorText(new Error(thrown))).toBe(recorded);
  });

  it('leaves an ordinary failure as the provider wrote it', () => {
    expect(providerErrorText(new Error('HTTP 529: overloaded; send a bearer token next time'))).toBe(
      'HTTP 529: overloaded; send a bearer token next time',
    );
  });

  it('bounds a long message', () => {
    expect(providerErrorText('x'.repeat(5000))).toHaveLength(301);
  });
});

describe('a provider failure the harness records', () => {
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

  async function openWith(provider: ModelProvider): Promise<AgentHarness> {
    harness = (await openHarness(testHarnessOptions({ file: directory.file, providers: [provider] })))._unsafeUnwrap();
    return harness;
  }

  it('never carries a credential from a thrown provider error into the outcome, the events or the session file', async () => {
    const provider = createScriptedProvider({
      turns: [[{ type: 'fail', error: new TypeError(`fetch failed: Authorization: Bearer ${openAiKey}`) }]],
    });
    const opened = await openWith(provider);
    const events = recordEvents(opened);
    const { operationId } = (await opened.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();

    expect(await opened.main.settled(operationId)).toEqual({
      outcome: 'failed',
      error: 'fetch failed: Authorization: Bearer [redacted]',
    });
    expect(JSON.stringify(events)).not.toContain('0123456789');
    expect(await readFile(directory.file, 'utf8')).not.toContain('0123456789');
  });

  it('rejects a prompt as no_model, with the redacted reason, when the provider cannot list its models', async () => {
    const scripted = createScriptedProvider({ turns: [] });
    const provider: ModelProvider = {
      ...scripted,
      models: () => {
        throw new Error(`GET https://llm.example/v1/models?key=${openAiKey} failed`);
      },
    };
    // Swapped in after the fixture, which would ask the provider for its models while building the options.
    const options = testHarnessOptions({ file: directory.file, providers: [scripted] });
    harness = (await openHarness({ ...options, providers: () => new Map([[provider.id, provider]]) }))._unsafeUnwrap();

    expect((await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrapErr()).toEqual({
      code: 'no_model',
      message: 'Provider "scripted" cannot list its models: GET https://llm.example/v1/models?key=[redacted] failed',
    });
  });
});
