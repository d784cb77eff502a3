import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentMessage, AnyAgentTool, SessionEntry, UserMessage } from '@pi/agent-contract';
import type { AgentHarness } from './harness-types';
import { openHarness } from './open-harness';
import { ProviderError, type ProviderEvent } from './provider';
import {
  createDeferred,
  harnessTestBed,
  nextEvent,
  readSessionLines,
  testHarnessOptions,
  textAnswer,
  windowedProvider,
  type WindowedProviderOptions,
} from './testing';

const user = (text: string): UserMessage => ({ role: 'user', content: [{ type: 'text', text }] });
const textOf = (message: AgentMessage) =>
  message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
const texts = (messages: readonly AgentMessage[] | undefined) => (messages ?? []).map(textOf);
/** Every answer is ~726 estimated tokens: a window of 2000 is passed (80 %) at the fourth prompt. */
const bigAnswers = (_request: unknown, index: number) => textAnswer(`A${index} ${'x'.repeat(2800)}`);
type Compaction = Extract<SessionEntry, { kind: 'compaction' }>;

const bed = harnessTestBed();
const open = bed.open;

async function openWith(options: WindowedProviderOptions, tools: AnyAgentTool[] = []) {
  const provider = windowedProvider(options);
  const harness = (
    await openHarness(testHarnessOptions({ file: bed.directory.file, providers: [provider], tools }))
  )._unsafeUnwrap();
  open.push(harness);
  return { harness, provider };
}

async function exchange(harness: AgentHarness, text: string) {
  const accepted = (await harness.main.prompt([user(text)], BACKGROUND_CONTEXT))._unsafeUnwrap();
  return harness.main.settled(accepted.operationId);
}

async function compactions(): Promise<Compaction[]> {
  const lines = (await readSessionLines(bed.directory.file)) as unknown as SessionEntry[];
  return lines.filter((line): line is Compaction => line.kind === 'compaction');
}

async function storedMessages(): Promise<string[]> {
  const lines = (await readSessionLines(bed.directory.file)) as unknown as SessionEntry[];
  return lines.flatMap((line) => (line.kind === 'message' ? [textOf(line.message).slice(0, 2)] : []));
}

describe('automatic compaction', () => {
  it('waits until a request would pass 80 % of the window, then sends the summary and the kept tail', async () => {
    const { harness, provider } = await openWith({ contextWindow: 2000, answer: bigAnswers });
    for (const prompt of ['one', 'two', 'three']) expect((await exchange(harness, prompt)).outcome).toBe('completed');
    expect(provider.summaries).toEqual([]);
    expect(await compactions()).toEqual([]);

    expect((await exchange(harness, 'four')).outcome).toBe('completed');
    expect(provider.summaries).toHaveLength(1);
    expect(provider.summaries[0]).toMatchObject({ previousSummary: null, instructions: null, maxInputTokens: 1400 });
    expect(texts(provider.summaries[0]?.messages).map((text) => text.slice(0, 3))).toEqual([
      'one',
      'A0 ',
      'two',
      'A1 ',
      'thr',
      'A2 ',
    ]);
    const [sent] = [provider.requests[3]?.messages];
    expect(texts(sent)).toHaveLength(2);
    expect(texts(sent)[0]).toContain('summary of 6 messages');
    expect(texts(sent)[1]).toBe('four');

    const [entry] = await compactions();
    const four = harness.tree.entries().find((e) => e.kind === 'message' && textOf(e.message) === 'four');
    expect(entry).toMatchObject({
      firstKeptEntryId: four?.id,
      summary: 'summary of 6 messages',
      trigger: 'auto',
      model: 'windowed/small',
      instructions: null,
    });
    expect(entry?.operationId).toBe(harness.main.running ?? (four?.kind === 'message' ? four.operationId : null));
    expect(entry?.tokensBefore).toBeGreaterThan(1600);
    expect(entry?.tokensAfter).toBeLessThan(100);
    // The whole history stays in the file (and the tree): only what the model is sent shrank.
    expect(await storedMessages()).toEqual(['on', 'A0', 'tw', 'A1', 'th', 'A2', 'fo', 'A3']);
    expect(harness.tree.messages()).toHaveLength(8);

    // The next request continues from the compaction: the summary, the kept tail and what came after.
    await exchange(harness, 'five');
    expect(texts(provider.requests[4]?.messages).map((text) => text.slice(0, 4))).toEqual([
      'The ',
      'four',
      'A3 x',
      'five',
    ]);
    expect(provider.summaries).toHaveLength(1);
  });

  it('is what before_model_request hooks see: compaction builds the context, hooks adjust it', async () => {
    const { harness, provider } = await openWith({ contextWindow: 2000, answer: bigAnswers });
    const seen: string[][] = [];
    harness.hooks.beforeModelRequest((request) => {
      seen.push(texts(request.messages).map((text) => text.slice(0, 4)));
      return { messages: [user('hook context'), ...request.messages] };
    });
    for (const prompt of ['one', 'two', 'three', 'four']) await exchange(harness, prompt);
    expect(seen[3]).toEqual(['The ', 'four']);
    expect(texts(provider.requests[3]?.messages).map((text) => text.slice(0, 4))).toEqual(['hook', 'The ', 'four']);
    // What hooks add is never summarized: the summary is made of the branch.
    expect(texts(provider.summaries[0]?.messages)).not.toContain('hook context');
  });

  it('keeps a tool call with its results in the tail', async () => {
    const calls: ProviderEvent[] = [
      { type: 'tool_call', id: 'c1', name: 'note', arguments: { n: 1 } },
      { type: 'tool_call', id: 'c2', name: 'note', arguments: { n: 2 } },
      { type: 'done', stopReason: 'tool_calls' },
    ];
    const note: AnyAgentTool = {
      name: 'note',
      label: 'Note',
      description: 'notes',
      executionMode: 'sequential',
      parameters: z.object({ n: z.number() }),
      execute: async (args: { n: number }) => ({ content: [{ type: 'text', text: `noted ${args.n}` }], details: null }),
    };
    const { harness, provider } = await openWith(
      { contextWindow: 2000, answer: (_request, index) => (index === 0 ? calls : textAnswer('done')) },
      [note],
    );
    // One big prompt (~1515 tokens): under 80 % alone, over it with the calls and their results.
    expect((await exchange(harness, 'x'.repeat(6000))).outcome).toBe('completed');
    expect(provider.summaries).toHaveLength(1);
    expect(provider.summaries[0]?.messages.map((message) => message.role)).toEqual(['user']);
    expect(provider.requests[1]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
    ]);
    const [entry] = await compactions();
    const callEntry = harness.tree
      .entries()
      .find((e) => e.kind === 'message' && e.message.role === 'assistant' && e.message.stopReason === 'tool_calls');
    expect(entry?.firstKeptEntryId).toBe(callEntry?.id);
  });

  it('is restored with the session: a reopened harness sends the summary and the tail', async () => {
    const first = await openWith({ contextWindow: 2000, answer: bigAnswers });
    for (const prompt of ['one', 'two', 'three', 'four']) await exchange(first.harness, prompt);
    await first.harness.close();
    open.splice(0);
    const { harness, provider } = await openWith({ contextWindow: 2000, answer: bigAnswers });
    await exchange(harness, 'five');
    expect(texts(provider.requests[0]?.messages).map((text) => text.slice(0, 4))).toEqual([
      'The ',
      'four',
      'A3 x',
      'five',
    ]);
    expect(provider.summaries).toEqual([]);
  });

  it('never happens for a model without a known window', async () => {
    const { harness, provider } = await openWith({ answer: bigAnswers });
    for (const prompt of ['one', 'two', 'three', 'four', 'five']) await exchange(harness, prompt);
    expect(provider.summaries).toEqual([]);
    expect(provider.requests[4]?.messages).toHaveLength(9);
  });

  it('that fails changes nothing, and the request goes out uncompacted while it fits the window', async () => {
    const { harness, provider } = await openWith({
      contextWindow: 2400,
      answer: bigAnswers,
      summarize: async () => {
        throw new ProviderError('http_status', 'Local answered HTTP 500 with key sk-abcdefghijklmnopqrstuvwx');
      },
    });
    // 2238 tokens: over 80 % of 2400, within 2400.
    for (const prompt of ['one', 'two', 'three', 'four'])
      expect((await exchange(harness, prompt)).outcome).toBe('completed');
    expect(provider.summaries).toHaveLength(1);
    expect(provider.requests[3]?.messages).toHaveLength(7);
    expect(await compactions()).toEqual([]);
  });

  it('that fails when the request would not fit fails the run with compaction_failed, writing no compaction', async () => {
    const { harness, provider } = await openWith({
      contextWindow: 2000,
      answer: bigAnswers,
      summarize: async () => {
        throw new ProviderError('http_status', 'Local answered HTTP 500 with key sk-abcdefghijklmnopqrstuvwx');
      },
    });
    for (const prompt of ['one', 'two', 'three']) await exchange(harness, prompt);
    const settled = await exchange(harness, 'four');
    expect(settled.outcome).toBe('failed');
    expect(settled.error).toMatch(
      /^compaction_failed: the context \(~\d+ tokens\) exceeds windowed\/small's window of 2000 tokens/,
    );
    expect(settled.error).toContain('HTTP 500');
    expect(settled.error).not.toContain('sk-abcdef');
    expect(provider.requests).toHaveLength(3);
    expect(await compactions()).toEqual([]);
  });

  it('aborted with its run writes nothing, and the run settles aborted', async () => {
    const started = createDeferred<void>();
    const { harness, provider } = await openWith({
      contextWindow: 2000,
      answer: bigAnswers,
      summarize: (_request, context) =>
        new Promise((_resolve, reject) => {
          started.resolve();
          context.abortSignal?.addEventListener('abort', () => reject(new ProviderError('aborted', 'aborted')));
        }),
    });
    for (const prompt of ['one', 'two', 'three']) await exchange(harness, prompt);
    const { operationId } = (await harness.main.prompt([user('four')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    await started.promise;
    (await harness.main.requestAbort(operationId, BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect(await harness.main.settled(operationId)).toEqual({ outcome: 'aborted', error: null });
    expect(await compactions()).toEqual([]);
    expect(provider.requests).toHaveLength(3);
  });

  it('asks the stream with the summary prompt when the provider has no summarize', async () => {
    const { harness, provider } = await openWith({
      contextWindow: 2000,
      summarize: null,
      answer: (request, index) =>
        textOf(request.messages[0] ?? user('')).includes('<conversation>')
          ? textAnswer('streamed summary')
          : bigAnswers(request, index),
    });
    for (const prompt of ['one', 'two', 'three', 'four']) await exchange(harness, prompt);
    const summaryRequest = provider.requests[3];
    expect(summaryRequest?.tools).toEqual([]);
    // The conversation is bounded to 70 % of the window: the oldest messages are left out, and it says so.
    expect(texts(summaryRequest?.messages)[0]).toContain(
      '<conversation>\n[4 earlier messages left out]\n\n[User]: three',
    );
    expect((await compactions())[0]?.summary).toBe('streamed summary');
    expect(texts(provider.requests[4]?.messages)[0]).toContain('streamed summary');
  });
});

describe('manual compaction', () => {
  it('summarizes the older part with the instructions and reports the estimates', async () => {
    const { harness, provider } = await openWith({ answer: bigAnswers });
    for (const prompt of ['one', 'two']) await exchange(harness, prompt);
    const compacted = (
      await harness.compaction.compact({ instructions: '  keep the names ' }, BACKGROUND_CONTEXT)
    )._unsafeUnwrap();
    expect(provider.summaries[0]?.instructions).toBe('keep the names');
    // Half of what there is at most is kept: the second exchange stays.
    expect(compacted).toMatchObject({ summarizedMessages: 2, keptMessages: 2 });
    expect(compacted.tokensAfter).toBeLessThan(compacted.tokensBefore);
    const [entry] = await compactions();
    expect(entry).toMatchObject({
      id: compacted.entryId,
      trigger: 'manual',
      operationId: null,
      instructions: 'keep the names',
    });
    await exchange(harness, 'three');
    expect(texts(provider.requests[2]?.messages).map((text) => text.slice(0, 4))).toEqual([
      'The ',
      'two',
      'A1 x',
      'thre',
    ]);
  });

  it('is refused while a run is in progress, and when there is nothing to compact', async () => {
    const { harness } = await openWith({});
    expect((await harness.compaction.compact({}, BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe(
      'nothing_to_compact',
    );
    const { operationId } = (await harness.main.prompt([user('one')], BACKGROUND_CONTEXT))._unsafeUnwrap();
    expect((await harness.compaction.compact({}, BACKGROUND_CONTEXT))._unsafeUnwrapErr()).toMatchObject({
      code: 'busy',
    });
    await harness.main.settled(operationId);
    const long = 'x'.repeat(5000);
    expect((await harness.compaction.compact({ instructions: long }, BACKGROUND_CONTEXT))._unsafeUnwrapErr().code).toBe(
      'invalid_instructions',
    );
  });

  it('that fails or is aborted writes nothing', async () => {
    let fail = true;
    const { harness } = await openWith({
      answer: bigAnswers,
      summarize: (_request, context) =>
        fail
          ? Promise.reject(new ProviderError('stream_dropped', 'cannot reach Local'))
          : new Promise(() => context.abortSignal?.addEventListener('abort', () => undefined)),
    });
    for (const prompt of ['one', 'two']) await exchange(harness, prompt);
    const failed = (await harness.compaction.compact({}, BACKGROUND_CONTEXT))._unsafeUnwrapErr();
    expect(failed).toEqual({
      code: 'compaction_failed',
      message: 'The summary could not be written: cannot reach Local',
    });
    fail = false;
    const controller = new AbortController();
    const pending = harness.compaction.compact({}, withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
    controller.abort();
    expect((await pending)._unsafeUnwrapErr().code).toBe('aborted');
    expect(await compactions()).toEqual([]);
    expect(harness.tree.entries().some((entry) => entry.kind === 'compaction')).toBe(false);
  });

  it('gives way to a run that starts while the summary is written', async () => {
    const summaryAsked = createDeferred<void>();
    const finish = createDeferred<string>();
    const { harness } = await openWith({
      answer: bigAnswers,
      summarize: () => {
        summaryAsked.resolve();
        return finish.promise;
      },
    });
    for (const prompt of ['one', 'two']) await exchange(harness, prompt);
    const pending = harness.compaction.compact({}, BACKGROUND_CONTEXT);
    await summaryAsked.promise;
    expect((await harness.compaction.compact({}, BACKGROUND_CONTEXT))._unsafeUnwrapErr().message).toBe(
      'A compaction is already in progress',
    );
    const settled = exchange(harness, 'three');
    finish.resolve('too late');
    expect((await pending)._unsafeUnwrapErr().code).toBe('busy');
    await settled;
    expect(await compactions()).toEqual([]);
  });

  it('belongs to its branch: moving the leaf before it sends the full history again', async () => {
    const { harness, provider } = await openWith({ answer: bigAnswers });
    await exchange(harness, 'one');
    const twoSettled = nextEvent(harness, 'run_settled');
    await exchange(harness, 'two');
    await twoSettled;
    const firstEnd = harness.tree
      .entries()
      .filter((entry) => entry.kind === 'operation_settled')
      .at(0)?.id;
    (await harness.compaction.compact({}, BACKGROUND_CONTEXT))._unsafeUnwrap();
    (await harness.navigation.moveLeaf(firstEnd ?? null, BACKGROUND_CONTEXT))._unsafeUnwrap();
    await exchange(harness, 'again');
    expect(texts(provider.requests[2]?.messages).map((text) => text.slice(0, 4))).toEqual(['one', 'A0 x', 'agai']);
  });
});

describe('a request the provider refuses as too long', () => {
  const overflowAt =
    (failing: number) =>
    (_request: unknown, index: number): ProviderEvent[] => {
      if (index === failing) throw new ProviderError('context_overflow', 'prompt is too long: 210000 tokens > 200000');
      return textAnswer(`A${index}`);
    };

  it('is compacted and asked again once, even for a model without a known window, and the run completes', async () => {
    const { harness, provider } = await openWith({ answer: overflowAt(2) });
    for (const prompt of ['one', 'two']) expect((await exchange(harness, prompt)).outcome).toBe('completed');
    const run = await exchange(harness, 'three');

    expect(run.outcome).toBe('completed');
    expect(provider.summaries).toHaveLength(1);
    expect(await compactions()).toHaveLength(1);
    expect(texts(provider.requests.at(-1)?.messages).at(-1)).toBe('three');
    expect(textOf(harness.tree.messages().at(-1) as AgentMessage)).toBe('A3');
  });

  it('fails the run when compacting cannot make room, saying both why', async () => {
    const { harness } = await openWith({
      answer: overflowAt(1),
      summarize: async () => {
        throw new ProviderError('http_status', 'the summary was refused');
      },
    });
    await exchange(harness, 'one');
    const run = await exchange(harness, 'two');
    expect(run.outcome).toBe('failed');
    expect(run.error).toMatch(
      /^compaction_failed: prompt is too long.*compacting to make room failed: .*summary was refused/,
    );
    expect(await compactions()).toEqual([]);
  });

  it('is retried only once: a second refusal fails the run', async () => {
    const { harness, provider } = await openWith({
      answer: (_request, index) => {
        if (index >= 2) throw new ProviderError('context_overflow', 'maximum context length exceeded');
        return textAnswer(`A${index}`);
      },
    });
    for (const prompt of ['one', 'two']) await exchange(harness, prompt);
    const run = await exchange(harness, 'three');
    expect(run.outcome).toBe('failed');
    expect(run.error).toContain('maximum context length exceeded');
    expect(provider.requests).toHaveLength(4);
  });
});
