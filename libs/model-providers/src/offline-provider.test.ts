import { ProviderError, type AgentMessage, type ProviderEvent, type ProviderRequest, type ToolSchema } from '@pi/agent';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { describe, expect, it } from 'vitest';
import { createOfflineProvider } from './offline-provider';

const questionTool: ToolSchema = { name: 'question', description: 'Ask the user', parameters: { type: 'object' } };
const readTool: ToolSchema = { name: 'read', description: 'Read a file', parameters: { type: 'object' } };

function request(messages: AgentMessage[], overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return { modelId: 'echo', messages, tools: [questionTool, readTool], thinkingLevel: 'off', ...overrides };
}

function user(text: string): AgentMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

async function collect(events: AsyncIterable<ProviderEvent>): Promise<ProviderEvent[]> {
  const collected: ProviderEvent[] = [];
  for await (const event of events) collected.push(event);
  return collected;
}

function text(events: ProviderEvent[]): string {
  return events.map((event) => (event.type === 'text_delta' ? event.delta : '')).join('');
}

describe('createOfflineProvider', () => {
  it('lists an echo model and a reasoning model', () => {
    const provider = createOfflineProvider();
    expect(provider.id).toBe('offline');
    expect(provider.models().map((model) => `${model.provider}/${model.modelId}:${model.reasoning}`)).toEqual([
      'offline/echo:false',
      'offline/thinker:true',
    ]);
  });

  it('streams an echo of the last user message in several word deltas, then done', async () => {
    const events = await collect(
      createOfflineProvider().stream(request([user('hello there, offline world')]), BACKGROUND_CONTEXT),
    );
    expect(events.filter((event) => event.type === 'text_delta').length).toBeGreaterThan(1);
    expect(text(events)).toBe('You said: hello there, offline world');
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'stop' });
  });

  it('is deterministic: the same request streams the same events', async () => {
    const provider = createOfflineProvider();
    const first = await collect(
      provider.stream(request([user('ask me which color I like: red or blue')]), BACKGROUND_CONTEXT),
    );
    const second = await collect(
      provider.stream(request([user('ask me which color I like: red or blue')]), BACKGROUND_CONTEXT),
    );
    expect(second).toEqual(first);
  });

  it('asks the user through the question tool when a prompt says "ask me"', async () => {
    const events = await collect(
      createOfflineProvider().stream(
        request([user('ask me which color I like: red, green or blue')]),
        BACKGROUND_CONTEXT,
      ),
    );
    expect(events).toEqual([
      {
        type: 'tool_call',
        id: 'offline_call_1',
        name: 'question',
        arguments: {
          question: 'Which color I like?',
          options: [
            { label: 'red', description: null },
            { label: 'green', description: null },
            { label: 'blue', description: null },
          ],
        },
      },
      { type: 'done', stopReason: 'tool_calls' },
    ]);
  });

  it('quotes the tool result on the turn after a tool call', async () => {
    const messages: AgentMessage[] = [
      user('ask me which color I like: red, green or blue'),
      {
        role: 'assistant',
        content: [{ type: 'tool_call', id: 'offline_call_1', name: 'question', arguments: {} }],
        model: 'offline/echo',
        stopReason: 'tool_calls',
      },
      {
        role: 'tool',
        toolCallId: 'offline_call_1',
        toolName: 'question',
        content: [{ type: 'text', text: 'green' }],
        details: null,
        isError: false,
      },
    ];
    const events = await collect(createOfflineProvider().stream(request(messages), BACKGROUND_CONTEXT));
    expect(text(events)).toBe('You answered: green.');
    expect(events.at(-1)).toEqual({ type: 'done', stopReason: 'stop' });
  });

  it('calls any offered tool with "/tool <name> <json>" and explains a tool that is not offered', async () => {
    const provider = createOfflineProvider();
    const call = await collect(provider.stream(request([user('/tool read {"path":"a.txt"}')]), BACKGROUND_CONTEXT));
    expect(call[0]).toEqual({ type: 'tool_call', id: 'offline_call_1', name: 'read', arguments: { path: 'a.txt' } });
    const refused = await collect(provider.stream(request([user('/tool bash {}')]), BACKGROUND_CONTEXT));
    expect(text(refused)).toBe('I cannot call bash: it is not offered. Offered tools: question, read.');
  });

  it('calls the coding tools from plain prompts, when they are offered', async () => {
    const tools: ToolSchema[] = ['read', 'bash', 'edit', 'ls', 'find', 'grep'].map((name) => ({
      name,
      description: name,
      parameters: { type: 'object' },
    }));
    const provider = createOfflineProvider();
    const callFor = async (prompt: string) =>
      (await collect(provider.stream(request([user(prompt)], { tools }), BACKGROUND_CONTEXT)))[0];
    expect(await callFor('read README.md')).toMatchObject({ name: 'read', arguments: { path: 'README.md' } });
    expect(await callFor('run `echo hi`')).toMatchObject({ name: 'bash', arguments: { command: 'echo hi' } });
    expect(await callFor('replace hello with goodbye in greet.txt')).toMatchObject({
      name: 'edit',
      arguments: { path: 'greet.txt', oldText: 'hello', newText: 'goodbye' },
    });
    expect(await callFor('list files')).toMatchObject({ name: 'ls', arguments: {} });
    expect(await callFor('find *.ts')).toMatchObject({ name: 'find', arguments: { pattern: '*.ts' } });
    expect(await callFor('grep TODO')).toMatchObject({ name: 'grep', arguments: { pattern: 'TODO' } });
  });

  it('explains a coding prompt whose tool is not offered', async () => {
    const events = await collect(createOfflineProvider().stream(request([user('run ls')]), BACKGROUND_CONTEXT));
    expect(text(events)).toBe('I would call bash, but no bash tool is offered.');
  });

  it('documents the coding prompts in its help', async () => {
    const events = await collect(createOfflineProvider().stream(request([user('help')]), BACKGROUND_CONTEXT));
    for (const phrase of [
      '"read <file>"',
      '"run <command>"',
      '"replace [all] <old> with <new> in <file>"',
      '"grep <regex>',
    ]) {
      expect(text(events)).toContain(phrase);
    }
  });

  it('does not ask when no question tool is offered', async () => {
    const events = await collect(
      createOfflineProvider().stream(request([user('ask me anything')], { tools: [] }), BACKGROUND_CONTEXT),
    );
    expect(text(events)).toBe('I would ask you "Anything?", but no question tool is offered.');
  });

  it('shows the thinking level in answers of the reasoning model', async () => {
    const events = await collect(
      createOfflineProvider().stream(
        request([user('hi')], { modelId: 'thinker', thinkingLevel: 'high' }),
        BACKGROUND_CONTEXT,
      ),
    );
    expect(text(events)).toBe('(thinking: high) You said: hi');
  });

  it('rejects a model it does not have with unknown_model', async () => {
    await expect(
      collect(createOfflineProvider().stream(request([user('hi')], { modelId: 'gpt' }), BACKGROUND_CONTEXT)),
    ).rejects.toMatchObject({
      code: 'unknown_model',
    });
  });

  it('stops between deltas with ProviderError aborted once the context is aborted', async () => {
    const controller = new AbortController();
    const context = withAbortSignal(controller.signal, BACKGROUND_CONTEXT);
    const stream = createOfflineProvider().stream(request([user('one two three four five')]), context);
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).toEqual({ type: 'text_delta', delta: 'You ' });
    controller.abort();
    const rejection = await iterator.next().catch((thrown: unknown) => thrown);
    expect(rejection).toBeInstanceOf(ProviderError);
    expect(rejection).toMatchObject({ code: 'aborted' });
  });
});
