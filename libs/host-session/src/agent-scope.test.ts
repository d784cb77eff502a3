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
import { throwEffectFailure } from '@pi/host-kit/testing';
import type { AgentPluginScope, CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { agentScope } from './agent-scope';
import { pluginHooks } from './plugin-hooks';
import { SessionLifecycleHooks } from './session-lifecycle-hooks';

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
let failures: CallbackFailures;

beforeEach(async () => {
  failures = new CallbackFailures();
  lifecycle = new SessionLifecycleHooks(() => 0, failures);
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

/** The parts of a session facet's context these tests exercise: the agent view, `hook` and `on`. */
type AgentPlugin = Pick<CodingAgentSessionPluginContext, 'agent' | 'hook' | 'on'>;

/** One plugin's agent scope and verbs, built by a kernel as the session host builds them; stop() disposes it. */
async function pluginWith(setup: (plugin: AgentPlugin) => void) {
  const parts = { harness, identity: { sessionId: 's', workspaceId: 'w' }, lifecycle, failures };
  const kernel = createKernel<AgentPlugin>({
    createContext: (scope, entry) => ({ agent: agentScope(parts, entry.id), ...pluginHooks(parts, entry.id, scope) }),
    onEffectFailure: throwEffectFailure,
  });
  (await kernel.start([{ id: '@t/policy', facet: setup }]))._unsafeUnwrap();
  return kernel;
}

async function capturedScope(): Promise<AgentPluginScope> {
  let agent: AgentPluginScope | undefined;
  await pluginWith((plugin) => void (agent = plugin.agent));
  if (agent === undefined) throw new Error('the facet did not run');
  return agent;
}

describe('the scoped agent view', () => {
  it('removes the hooks and event listeners a plugin registered when the plugin is disposed', async () => {
    const hookCalls: string[] = [];
    const events: HarnessEvent['type'][] = [];
    const plugin = await pluginWith((registering) => {
      registering.hook('beforeTool', (call) => void hookCalls.push(`before ${call.toolName}`));
      registering.hook('afterTool', (call) => void hookCalls.push(`after ${call.toolName}`));
      registering.hook('beforeModelRequest', (request) => void hookCalls.push(`request ${request.turn}`));
      registering.hook('sessionStart', () => void hookCalls.push('start'));
      registering.hook('sessionShutdown', () => void hookCalls.push('shutdown'));
      registering.on('*', (event) => void events.push(event.type));
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
    await pluginWith((registering) => {
      removers.push(registering.hook('beforeTool', () => void calls.push('first')));
      registering.hook('beforeTool', () => void calls.push('second'));
      removers.push(registering.hook('afterTool', () => void calls.push('after, removed')));
      registering.hook('afterTool', () => void calls.push('after'));
      removers.push(registering.hook('beforeModelRequest', () => void calls.push('request, removed')));
      removers.push(registering.hook('sessionStart', () => void calls.push('start, removed')));
      registering.hook('sessionStart', () => void calls.push('start'));
      removers.push(registering.hook('sessionShutdown', () => void calls.push('shutdown, removed')));
      removers.push(registering.on('*', () => void calls.push('event')));
    });

    for (const remove of removers) remove();
    await runOnce();
    await lifecycle.started({ sessionId: 's', created: false, recovery: [] });
    await lifecycle.stopping({ sessionId: 's' });

    expect(calls).toEqual(['second', 'after', 'start']);
  });

  it('replaces a hook registered again under the same local id, and keeps hooks of other ids', async () => {
    const calls: string[] = [];
    await pluginWith((registering) => {
      registering.hook('beforeTool', () => void calls.push('gate v1'), 'gate');
      registering.hook('beforeTool', () => void calls.push('audit'), 'audit');
      registering.hook('beforeTool', () => void calls.push('gate v2'), 'gate');
      registering.hook('afterTool', () => void calls.push('after gate'), 'gate');
    });
    await runOnce();
    expect(calls).toEqual(['audit', 'gate v2', 'after gate']);
  });

  it('tells a listener only the events of its type, and every event for *', async () => {
    const settled: string[] = [];
    const all = new Set<string>();
    await pluginWith((registering) => {
      registering.on('run_settled', (event) => void settled.push(event.outcome.outcome));
      registering.on('*', (event) => void all.add(event.type));
    });
    await runOnce();
    expect(settled).toEqual(['completed']);
    expect([...all]).toEqual(expect.arrayContaining(['run_started', 'text_delta', 'run_settled']));
  });

  it('records a listener that throws against its plugin, and the others still hear the event', async () => {
    const heard: string[] = [];
    await pluginWith((registering) => {
      registering.on('run_settled', () => {
        throw new Error('listener broke');
      });
      registering.on('run_settled', (event) => void heard.push(event.outcome.outcome));
    });
    await runOnce();
    expect(heard).toEqual(['completed']);
    expect(failures.list()).toContainEqual({
      owner: '@t/policy',
      message: 'run_settled listener threw: listener broke',
    });
  });

  it('refuses a hook name the session does not have, naming the plugin', async () => {
    let refusal: unknown;
    await pluginWith((registering) => {
      try {
        registering.hook('beforeEverything' as 'beforeTool', () => undefined);
      } catch (error) {
        refusal = error;
      }
    });
    expect(String(refusal)).toContain('Plugin "@t/policy": there is no session hook named "beforeEverything"');
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
