import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentMessage, AnyAgentTool } from '@pi/agent';
import { createScriptedProvider } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { SessionFacet } from '@pi/plugin-api';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { eventually } from '@pi/test-support';
import { chatSessionFacet, pluginId } from '../src/index';
import { observeChat, sessionTranscript, type Transport } from './chat-host';

const hosts: TestSessionHost[] = [];
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close();
});

const secrets: AnyAgentTool = {
  name: 'env',
  label: 'Env',
  description: 'prints the environment',
  executionMode: 'sequential',
  parameters: z.object({}),
  execute: async () => ({ content: [{ type: 'text', text: 'HOME=/home/me TOKEN=s3cr3t' }], details: { count: 2 } }),
};

/**
 * A plugin that redacts tool output after the tool ran and puts a line of project context in front of every model
 * request: what a client replicates shows the first and never the second.
 */
const redactingPlugin: SessionFacet = (context) => {
  context.tools.add((draft) => draft.set(secrets.name, secrets));
  context.hook('afterTool', (_call, result) => ({
    content: result.content.map((part) => ({ ...part, text: part.text.replace(/TOKEN=\S+/, 'TOKEN=[redacted]') })),
  }));
  context.hook('beforeModelRequest', (request) => ({
    messages: [{ role: 'user', content: [{ type: 'text', text: 'project context: tabs' }] }, ...request.messages],
  }));
};

describe.each<Transport>(['loopback', 'websocket'])('tool hooks seen by a chat client over %s', (transport) => {
  it('an after_tool rewrite is the result the client replicates; injected request context is not', async () => {
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'tool_call', id: 'c1', name: 'env', arguments: {} },
          { type: 'done', stopReason: 'tool_calls' },
        ],
        [
          { type: 'text_delta', delta: 'done' },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    const host = await startTestSessionHost({
      transport,
      facets: [
        { id: '@test/model', facet: modelProviderFacet(provider) },
        { id: '@test/redact', facet: redactingPlugin },
        { id: pluginId, facet: chatSessionFacet },
      ],
    });
    hosts.push(host);
    const observer = await observeChat(host);

    expect((await observer.chat.prompt({ text: 'show env' }, BACKGROUND_CONTEXT)).accepted).toBe(true);
    await eventually(() => observer.events.some((event) => event.type === 'settled'));
    await eventually(() => observer.transcript.synced && observer.transcript.entries.at(-1)?.kind === 'run_settled');

    const entries = observer.transcript.entries;
    expect(entries.find((entry) => entry.kind === 'tool_result')).toMatchObject({
      toolName: 'env',
      text: 'HOME=/home/me TOKEN=[redacted]',
      details: { count: 2 },
      isError: false,
    });
    expect(JSON.stringify(entries)).not.toContain('s3cr3t');
    expect(entries.some((entry) => entry.kind === 'user' && entry.text.includes('project context'))).toBe(false);
    expect(entries).toEqual(await sessionTranscript(host));

    const texts = (messages: readonly AgentMessage[] | undefined) =>
      (messages ?? []).map((message) => message.content.map((part) => ('text' in part ? part.text : '')).join(''));
    expect(texts(provider.requests[1]?.request.messages)).toEqual([
      'project context: tabs',
      'show env',
      '',
      'HOME=/home/me TOKEN=[redacted]',
    ]);
  });
});
