import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentMessage, AgentTool } from '@pi/agent';
import { createDeferred, createScriptedProvider, type Deferred, type ScriptStep } from '@pi/agent/testing';
import { MAX_PROMPT_TEXT_LENGTH, type ChatEvent } from '@pi/chat';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { SessionFacet } from '@pi/plugin-api';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { eventually, remoteErrorOf } from '@pi/test-support';
import { chatSessionFacet, pluginId } from '../src/index';
import { observeChat, sessionFileEntries, type ChatObserver, type Transport } from './chat-host';

const hosts: TestSessionHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

const answer = (text: string): ScriptStep[] => [
  { type: 'text_delta', delta: text },
  { type: 'done', stopReason: 'stop' },
];
/** A first turn that waits for `gate` before it answers. */
const waitsFor = (gate: Deferred<void>, text = 'first'): ScriptStep[] => [
  { type: 'wait', until: gate.promise },
  ...answer(text),
];

/** A tool that says when it starts and finishes only once its gate opens. */
function gatedTool(started: (id: string) => void, gates: Record<string, Deferred<void>>): AgentTool<{ id: string }> {
  return {
    name: 'slow',
    label: 'Slow',
    description: 'waits for the test',
    executionMode: 'sequential',
    parameters: z.object({ id: z.string() }),
    async execute({ id }) {
      started(id);
      await gates[id]?.promise;
      return { content: [{ type: 'text', text: `slow ${id} done` }], details: null };
    },
  };
}

async function startHost(
  transport: Transport,
  turns: ScriptStep[][],
  tools: AgentTool<{ id: string }>[] = [],
): Promise<{ host: TestSessionHost; requests: () => ReadonlyArray<readonly AgentMessage[]> }> {
  const provider = createScriptedProvider({ turns });
  const toolFacet: SessionFacet = (context) => {
    context.tools.add((draft) => {
      for (const tool of tools) draft.set(tool.name, tool as never);
    });
  };
  const host = await startTestSessionHost({
    transport,
    facets: [
      { id: '@test/model', facet: modelProviderFacet(provider) },
      { id: '@test/tools', facet: toolFacet },
      { id: pluginId, facet: chatSessionFacet },
    ],
  });
  hosts.push(host);
  return { host, requests: () => provider.requests.map(({ request }) => request.messages) };
}

function settledCount(observer: ChatObserver): number {
  return observer.events.filter((event: ChatEvent) => event.type === 'settled').length;
}

function userTexts(observer: ChatObserver): string[] {
  return observer.transcript.entries.flatMap((entry) => (entry.kind === 'user' ? [entry.text] : []));
}

function textsOf(messages: readonly AgentMessage[] | undefined): string[] {
  return (messages ?? []).map((message) =>
    message.content
      .map((part) => (part.type === 'text' ? part.text : part.type === 'tool_call' ? `call:${part.name}` : ''))
      .join(''),
  );
}

describe.each<Transport>(['loopback', 'websocket'])('steer and follow-up over %s', (transport) => {
  it('a steer sent during a two-tool run reaches the model after both tools, before the next request', async () => {
    const gates = { a: createDeferred<void>(), b: createDeferred<void>() };
    const started: Record<string, Deferred<void>> = { a: createDeferred<void>(), b: createDeferred<void>() };
    const tool = gatedTool((id) => started[id]?.resolve(), gates);
    const { host, requests } = await startHost(
      transport,
      [
        [
          { type: 'tool_call', id: 'c1', name: 'slow', arguments: { id: 'a' } },
          { type: 'tool_call', id: 'c2', name: 'slow', arguments: { id: 'b' } },
          { type: 'done', stopReason: 'tool_calls' },
        ],
        answer('using tabs'),
      ],
      [tool],
    );
    const observer = await observeChat(host);
    const { chat } = observer;
    await chat.prompt({ text: 'reformat both files' }, BACKGROUND_CONTEXT);
    await started.a?.promise;

    const steered = await chat.steer({ text: 'use tabs' }, BACKGROUND_CONTEXT);
    expect(steered).toEqual({ accepted: true, queueItemId: expect.any(String), operationId: null, error: null });
    await eventually(() => chat.queue.value.items.length === 1);
    expect(chat.queue.value.items[0]).toEqual({
      id: steered.queueItemId,
      kind: 'steer',
      text: 'use tabs',
      queuedAt: expect.any(String),
    });
    gates.a.resolve();
    await started.b?.promise;
    // The second tool runs: the steer still waits for the turn to end.
    expect(requests()).toHaveLength(1);
    expect(chat.queue.value.items).toHaveLength(1);
    gates.b.resolve();
    await eventually(() => settledCount(observer) === 1);

    expect(requests()).toHaveLength(2);
    expect(textsOf(requests()[1])).toEqual([
      'reformat both files',
      'call:slowcall:slow',
      'slow a done',
      'slow b done',
      'use tabs',
    ]);
    expect(chat.queue.value.items).toEqual([]);
    await eventually(() => userTexts(observer).length === 2);
    expect(userTexts(observer)).toEqual(['reformat both files', 'use tabs']);
    expect(observer.transcript.entries.filter((entry) => entry.kind === 'run_started')).toHaveLength(1);
  });

  it('two follow-ups run in order, each its own run, after the run settles', async () => {
    const gate = createDeferred<void>();
    const { host, requests } = await startHost(transport, [waitsFor(gate), answer('second'), answer('third')]);
    const observer = await observeChat(host);
    const { chat } = observer;
    await chat.prompt({ text: 'one' }, BACKGROUND_CONTEXT);
    const two = await chat.followUp({ text: 'two' }, BACKGROUND_CONTEXT);
    const three = await chat.followUp({ text: 'three' }, BACKGROUND_CONTEXT);
    expect([two.queueItemId, three.queueItemId]).toEqual([expect.any(String), expect.any(String)]);
    await eventually(() => chat.queue.value.items.length === 2);
    expect(chat.queue.value.items.map((item) => `${item.kind}:${item.text}`)).toEqual([
      'follow-up:two',
      'follow-up:three',
    ]);

    gate.resolve();
    await eventually(() => settledCount(observer) === 3);
    expect(requests().map((messages) => textsOf(messages).at(-1))).toEqual(['one', 'two', 'three']);
    await eventually(() => observer.transcript.entries.filter((entry) => entry.kind === 'run_settled').length === 3);
    expect(userTexts(observer)).toEqual(['one', 'two', 'three']);
    expect(observer.transcript.entries.filter((entry) => entry.kind === 'run_started')).toHaveLength(3);
    expect(chat.queue.value.items).toEqual([]);
  });

  it('withdrawing a queued item removes it for every client; the codes for consumed and unknown ids', async () => {
    const gate = createDeferred<void>();
    const { host } = await startHost(transport, [waitsFor(gate), answer('kept ran')]);
    const first = await observeChat(host);
    const second = await observeChat(host);
    await first.chat.prompt({ text: 'one' }, BACKGROUND_CONTEXT);
    const kept = await first.chat.followUp({ text: 'kept' }, BACKGROUND_CONTEXT);
    const dropped = await first.chat.followUp({ text: 'dropped' }, BACKGROUND_CONTEXT);
    await eventually(() => second.chat.queue.value.items.length === 2);

    await second.chat.withdraw(dropped.queueItemId ?? '', BACKGROUND_CONTEXT);
    for (const { chat } of [first, second]) {
      await eventually(() => chat.queue.value.items.length === 1);
      expect(chat.queue.value.items.map((item) => item.text)).toEqual(['kept']);
    }
    // Again is harmless (a retry after an uncertain disconnect); an id never queued is refused.
    await expect(first.chat.withdraw(dropped.queueItemId ?? '', BACKGROUND_CONTEXT)).resolves.toBeUndefined();
    expect((await remoteErrorOf(first.chat.withdraw('no-such-item', BACKGROUND_CONTEXT))).code).toBe(
      'unknown_queue_item',
    );
    gate.resolve();
    await eventually(() => settledCount(first) === 2);
    const late = await remoteErrorOf(second.chat.withdraw(kept.queueItemId ?? '', BACKGROUND_CONTEXT));
    expect(late.code).toBe('queue_item_consumed');
    expect(userTexts(first)).toEqual(['one', 'kept']);
  });

  it('requestAbort withdraws the whole queue: the run settles aborted and nothing starts after it', async () => {
    const { host } = await startHost(transport, [[{ type: 'wait', until: new Promise(() => undefined) }]]);
    const observer = await observeChat(host);
    const { chat } = observer;
    const { operationId } = await chat.prompt({ text: 'long task' }, BACKGROUND_CONTEXT);
    await chat.steer({ text: 'steer' }, BACKGROUND_CONTEXT);
    await chat.followUp({ text: 'follow' }, BACKGROUND_CONTEXT);
    await eventually(() => chat.queue.value.items.length === 2);

    await chat.requestAbort(operationId ?? '', BACKGROUND_CONTEXT);
    await eventually(() => chat.queue.value.items.length === 0);
    await eventually(() => settledCount(observer) === 1);
    expect(observer.events.find((event) => event.type === 'settled')).toMatchObject({ outcome: 'aborted' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settledCount(observer)).toBe(1);
    expect(observer.transcript.entries.filter((entry) => entry.kind === 'run_started')).toHaveLength(1);
    const withdrawn = (await sessionFileEntries(host)).flatMap((entry) =>
      entry.kind === 'queue_withdrawn' ? [entry.reason] : [],
    );
    expect(withdrawn).toEqual(['aborted', 'aborted']);
  });

  it('the same client operation id queues once', async () => {
    const gate = createDeferred<void>();
    const { host } = await startHost(transport, [waitsFor(gate), answer('once')]);
    const observer = await observeChat(host);
    const { chat } = observer;
    await chat.prompt({ text: 'one' }, BACKGROUND_CONTEXT);
    const first = await chat.followUp({ text: 'later', operationId: 'later-1' }, BACKGROUND_CONTEXT);
    const again = await chat.followUp({ text: 'later', operationId: 'later-1' }, BACKGROUND_CONTEXT);
    const asSteer = await chat.steer({ text: 'later', operationId: 'later-1' }, BACKGROUND_CONTEXT);
    expect(again).toEqual({ ...first, duplicate: true });
    expect(asSteer).toEqual(again);
    await eventually(() => chat.queue.value.items.length === 1);
    gate.resolve();
    await eventually(() => settledCount(observer) === 2);
    expect((await sessionFileEntries(host)).filter((entry) => entry.kind === 'queue_added')).toHaveLength(1);
    // The follow-up's run carries the client's id: `operation` finds it.
    expect(await chat.operation({ operationId: 'later-1' }, BACKGROUND_CONTEXT)).toEqual({
      state: 'completed',
      error: null,
    });
  });

  it('refuses bad input with stable codes: blank text, too long, a malformed id', async () => {
    const { host } = await startHost(transport, [[{ type: 'wait', until: new Promise(() => undefined) }]]);
    const { chat } = await observeChat(host);
    await chat.prompt({ text: 'one' }, BACKGROUND_CONTEXT);
    for (const member of ['steer', 'followUp'] as const) {
      const send = (request: { text: string; operationId?: string }, context: typeof BACKGROUND_CONTEXT) =>
        chat[member](request, context);
      const blank = await send({ text: '   ' }, BACKGROUND_CONTEXT);
      expect(blank).toMatchObject({ accepted: false, queueItemId: null, error: { code: 'invalid_message' } });
      const long = await remoteErrorOf(send({ text: 'x'.repeat(MAX_PROMPT_TEXT_LENGTH + 1) }, BACKGROUND_CONTEXT));
      expect(long.code).toBe('invalid_argument');
      const badId = await remoteErrorOf(send({ text: 'hi', operationId: 'a b' }, BACKGROUND_CONTEXT));
      expect(badId.code).toBe('invalid_argument');
    }
    expect((await remoteErrorOf(chat.withdraw('', BACKGROUND_CONTEXT))).code).toBe('invalid_argument');
    expect(chat.queue.value.items).toEqual([]);
    expect((await sessionFileEntries(host)).some((entry) => entry.kind === 'queue_added')).toBe(false);
  });

  it('a steer or follow-up with no run in progress starts one at once', async () => {
    const { host } = await startHost(transport, [answer('hi'), answer('again')]);
    const observer = await observeChat(host);
    const steered = await observer.chat.steer({ text: 'hello' }, BACKGROUND_CONTEXT);
    expect(steered).toEqual({ accepted: true, queueItemId: null, operationId: expect.any(String), error: null });
    await eventually(() => settledCount(observer) === 1);
    const followed = await observer.chat.followUp({ text: 'again' }, BACKGROUND_CONTEXT);
    expect(followed.operationId).toEqual(expect.any(String));
    await eventually(() => settledCount(observer) === 2);
    expect(observer.chat.queue.value.items).toEqual([]);
  });
});
