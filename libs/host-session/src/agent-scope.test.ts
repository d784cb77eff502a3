import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openHarness, type AgentHarness, type AnyAgentTool, type HarnessEvent, type UserMessage } from '@pi/agent';
import {
  createScriptedProvider,
  createSessionDirectory,
  testHarnessOptions,
  type ScriptStep,
  type SessionDirectory,
} from '@pi/agent/testing';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { CallbackFailures } from '@pi/host-kit';
import { createKernel } from '@pi/kernel';
import { agentScope } from './agent-scope';
import { SessionLifecycleHooks } from './session-lifecycle-hooks';
import type { AgentPluginScope } from '@pi/plugin-api';

const hello: UserMessage = { role: 'user', content: [{ type: 'text', text: 'go' }] };
const echo: AnyAgentTool = {
  name: 'echo',
  label: 'Echo',
  description: 'echoes',
  executionMode: 'sequential',
  parameters: z.object({}),
  execute: async () => ({ content: [{ type: 'text', text: 'echoed' }], details: null }),
};
/** One run: the model calls `echo`, then answers. */
const callsEcho: ScriptStep[][] = [
  [
    { type: 'tool_call', id: 'c1', name: 'echo', arguments: {} },
    { type: 'done', stopReason: 'tool_calls' },
  ],
  [
    { type: 'text_delta', delta: 'ok' },
    { type: 'done', stopReason: 'stop' },
  ],
];

let directory: SessionDirectory;
let harness: AgentHarness;
let lifecycle: SessionLifecycleHooks;

beforeEach(async () => {
  lifecycle = new SessionLifecycleHooks(() => 0, new CallbackFailures());
  directory = await createSessionDirectory();
  const provider = createScriptedProvider({ turns: [...callsEcho, ...callsEcho, ...callsEcho] });
  harness = (
    await openHarness(testHarnessOptions({ file: directory.file, providers: [provider], tools: [echo] }))
  )._unsafeUnwrap();
});
afterEach(async () => {
  await harness.close();
  await directory.remove();
});

async function runOnce(): Promise<void> {
  const { operationId } = (await harness.main.prompt([hello], BACKGROUND_CONTEXT))._unsafeUnwrap();
  expect((await harness.main.settled(operationId)).outcome).toBe('completed');
}

/** One plugin's agent scope, built by a kernel as the session host builds it; stop() disposes the plugin. */
async function pluginWith(setup: (agent: AgentPluginScope) => void) {
  const kernel = createKernel<AgentPluginScope>({
    createContext: (scope, entry) =>
      agentScope({ harness, identity: { sessionId: 's', workspaceId: 'w' }, lifecycle }, entry.id, scope),
  });
  (await kernel.start([{ id: '@t/policy', facet: setup }]))._unsafeUnwrap();
  return kernel;
}

async function capturedScope(): Promise<AgentPluginScope> {
  let agent: AgentPluginScope | undefined;
  await pluginWith((scope) => void (agent = scope));
  if (agent === undefined) throw new Error('the facet did not run');
  return agent;
}

describe('the scoped agent view', () => {
  it('removes the hooks and event listeners a plugin registered when the plugin is disposed', async () => {
    const hookCalls: string[] = [];
    const events: HarnessEvent['type'][] = [];
    const plugin = await pluginWith((agent) => {
      agent.hooks.beforeTool((call) => void hookCalls.push(`before ${call.toolName}`));
      agent.hooks.afterTool((call) => void hookCalls.push(`after ${call.toolName}`));
      agent.hooks.beforeModelRequest((request) => void hookCalls.push(`request ${request.turn}`));
      agent.hooks.sessionStart(() => void hookCalls.push('start'));
      agent.hooks.sessionShutdown(() => void hookCalls.push('shutdown'));
      agent.events.subscribe((event) => void events.push(event.type));
    });
    await runOnce();
    expect(hookCalls).toEqual(['request 0', 'before echo', 'after echo', 'request 1']);
    expect(events).toContain('run_settled');

    await plugin.stop();
    hookCalls.length = 0;
    events.length = 0;
    await runOnce();
    await lifecycle.started({ sessionId: 's', created: false, recovery: [] });
    await lifecycle.stopping({ sessionId: 's' });

    expect(hookCalls).toEqual([]);
    expect(events).toEqual([]);
  });

  it('removes exactly one hook or listener with the remover it returned', async () => {
    const calls: string[] = [];
    const removers: Array<() => void> = [];
    await pluginWith((agent) => {
      removers.push(agent.hooks.beforeTool(() => void calls.push('first')));
      agent.hooks.beforeTool(() => void calls.push('second'));
      removers.push(agent.hooks.afterTool(() => void calls.push('after, removed')));
      agent.hooks.afterTool(() => void calls.push('after'));
      removers.push(agent.hooks.beforeModelRequest(() => void calls.push('request, removed')));
      removers.push(agent.hooks.sessionStart(() => void calls.push('start, removed')));
      agent.hooks.sessionStart(() => void calls.push('start'));
      removers.push(agent.hooks.sessionShutdown(() => void calls.push('shutdown, removed')));
      removers.push(agent.events.subscribe(() => void calls.push('event')));
    });

    for (const remove of removers) remove();
    await runOnce();
    await lifecycle.started({ sessionId: 's', created: false, recovery: [] });
    await lifecycle.stopping({ sessionId: 's' });

    expect(calls).toEqual(['second', 'after', 'start']);
  });

  it('reads the durable tree but cannot record into it', async () => {
    const agent = await capturedScope();
    await runOnce();

    const tree = agent.sessionTree;
    expect(tree.entries()).toEqual(harness.tree.entries());
    expect(tree.leafId).toBe(harness.tree.leafId);
    expect(tree.messages().map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // The harness's own tree object can add entries in memory; the view a plugin holds has no such method.
    expect('add' in harness.tree).toBe(true);
    expect(Object.keys(tree).sort()).toEqual(['branch', 'entries', 'leafId', 'messages', 'sessionId']);
    expect(Object.isFrozen(tree)).toBe(true);
  });

  it("writes custom entries in the plugin's own namespace", async () => {
    const agent = await capturedScope();
    const entry = await agent.appendCustom({ note: 'hi' }, BACKGROUND_CONTEXT);
    expect(entry).toMatchObject({ kind: 'custom', namespace: '@t/policy', data: { note: 'hi' } });
  });

  it("records a message for the model in the plugin's own name", async () => {
    const agent = await capturedScope();
    const entry = await agent.appendMessage(hello, { note: 'hi' }, BACKGROUND_CONTEXT);
    expect(entry._unsafeUnwrap()).toMatchObject({
      kind: 'message',
      message: hello,
      origin: { namespace: '@t/policy', data: { note: 'hi' } },
    });
    expect(agent.sessionTree.messages()).toEqual([hello]);
  });
});
