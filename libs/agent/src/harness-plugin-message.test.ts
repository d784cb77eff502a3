import { BACKGROUND_CONTEXT } from '@pi/context';
import { describe, expect, it } from 'vitest';
import type { UserMessage } from '@pi/agent-contract';
import type { AgentHarness } from './harness-types';
import { openHarness } from './open-harness';
import {
  createDeferred,
  createScriptedProvider,
  harnessTestBed,
  readSessionLines,
  testHarnessOptions,
} from './testing';

const text = (body: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text: body }] });
const answer = [
  { type: 'text_delta' as const, delta: 'ok' },
  { type: 'done' as const, stopReason: 'stop' as const },
];

const bed = harnessTestBed();

async function openWith(setup: Omit<Parameters<typeof testHarnessOptions>[0], 'file'>): Promise<AgentHarness> {
  const harness = (await openHarness(testHarnessOptions({ file: bed.directory.file, ...setup })))._unsafeUnwrap();
  bed.open.push(harness);
  return harness;
}

describe("a plugin's message", () => {
  it('is sent with the next request after the messages before it, and its origin is kept in the file and on restore', async () => {
    const provider = createScriptedProvider({ turns: [answer] });
    const harness = await openWith({ providers: [provider] });

    const appended = await harness.appendMessage(
      '@t/shell',
      text('$ ls\na.txt'),
      { command: 'ls' },
      BACKGROUND_CONTEXT,
    );
    expect(appended._unsafeUnwrap()).toMatchObject({
      kind: 'message',
      operationId: null,
      origin: { namespace: '@t/shell', data: { command: 'ls' } },
    });
    const { operationId } = (await harness.main.prompt([text('what is there?')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await harness.main.settled(operationId);

    expect(provider.requests[0]?.request.messages).toEqual([text('$ ls\na.txt'), text('what is there?')]);
    const lines = await readSessionLines(bed.directory.file);
    expect(lines[1]).toMatchObject({ kind: 'message', origin: { namespace: '@t/shell', data: { command: 'ls' } } });

    await harness.close();
    const reopened = await openWith({ providers: [provider] });
    expect(reopened.tree.entries()[0]).toMatchObject({ origin: { namespace: '@t/shell', data: { command: 'ls' } } });
  });

  it('is refused while a run is in progress, naming the run, and nothing is written', async () => {
    const release = createDeferred<void>();
    const provider = createScriptedProvider({ turns: [[{ type: 'wait', until: release.promise }, ...answer]] });
    const harness = await openWith({ providers: [provider] });
    const { operationId } = (await harness.main.prompt([text('go')], BACKGROUND_CONTEXT))._unsafeUnwrap();

    const refused = await harness.appendMessage('@t/shell', text('late'), null, BACKGROUND_CONTEXT);
    expect(refused._unsafeUnwrapErr()).toEqual({
      code: 'busy',
      message: `Operation ${operationId} is still running`,
      operationId,
    });
    release.resolve();
    await harness.main.settled(operationId);
    expect(harness.tree.messages().map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('is refused when it holds no text, and its data must be strict JSON', async () => {
    const harness = await openWith({ providers: [createScriptedProvider({ turns: [] })] });
    const blank = await harness.appendMessage('@t/shell', text('  '), null, BACKGROUND_CONTEXT);
    expect(blank._unsafeUnwrapErr()).toMatchObject({ code: 'invalid_message' });
    await expect(
      harness.appendMessage('@t/shell', text('x'), { when: new Date() } as never, BACKGROUND_CONTEXT),
    ).rejects.toThrow(/not strict JSON/);
    expect(harness.tree.entries()).toEqual([]);
  });
});
