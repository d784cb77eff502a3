import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import type {
  CodingAgentSessionPluginContext,
  AgentLanePluginView,
  AgentPluginScope,
  ScopedContributions,
} from '@pi/plugin-api';
import type { SessionTree } from '@pi/agent';
import { startTestSessionHost, type TestSessionHost } from './testing';

/** Everything a facet may hold; anything else (harness, close, raw mutation, setters, transport) is reserved. */
const CONTEXT_KEYS = [
  'agent',
  'config',
  'diagnostics',
  'effect',
  'hook',
  'interactions',
  'on',
  'onActivate',
  'onClientConnect',
  'onClientDisconnect',
  'onDispose',
  'onService',
  'own',
  'paths',
  'pluginId',
  'projectEntries',
  'provide',
  'providers',
  'remoteEvents',
  'remoteState',
  'settings',
  'store',
  'tools',
  'tryUse',
  'upstream',
  'use',
  'view',
];
const RESERVED = [
  'harness',
  'session',
  'close',
  'mutate',
  'mutator',
  'setTools',
  'setProviders',
  'registry',
  'services',
  'rpc',
  'transport',
  'expose',
  'broker',
  'idGenerator',
  'storage',
];

let fixture: TestSessionHost | undefined;
afterEach(async () => {
  await fixture?.close();
  fixture = undefined;
});

async function facetContext(): Promise<CodingAgentSessionPluginContext> {
  let captured: CodingAgentSessionPluginContext | undefined;
  fixture = await startTestSessionHost({
    facets: [{ id: '@t/curious', facet: (context) => void (captured = context) }],
  });
  if (captured === undefined) throw new Error('the facet did not run');
  return captured;
}

/** Own and inherited property names, so a capability hidden on a prototype would show up too. */
function allKeys(value: object): string[] {
  const keys = new Set<string>();
  for (
    let current: object | null = value;
    current !== null && current !== Object.prototype;
    current = Object.getPrototypeOf(current)
  ) {
    for (const key of Object.getOwnPropertyNames(current)) keys.add(key);
  }
  return [...keys].sort();
}

describe('host-reserved capabilities at runtime', () => {
  it('a facet context holds exactly the granted capabilities, frozen', async () => {
    const context = await facetContext();
    expect(allKeys(context)).toEqual(CONTEXT_KEYS);
    expect(Object.isFrozen(context)).toBe(true);
    for (const key of RESERVED) expect(key in context).toBe(false);
  });

  it('the agent view has no harness, no close, no raw session mutation and no unscoped registration', async () => {
    const { agent } = await facetContext();
    expect(allKeys(agent)).toEqual([
      'appendCustom',
      'appendMessage',
      'compaction',
      'identity',
      'main',
      'navigation',
      // Read-only: why the session file cannot be written, or null.
      'sessionFileFault',
      'sessionTree',
    ]);
    expect(allKeys(agent.main)).toEqual([
      'followUp',
      'prompt',
      'queue',
      'requestAbort',
      'running',
      'settled',
      'steer',
      'withdraw',
    ]);
    expect(allKeys(agent.sessionTree)).toEqual(['branch', 'entries', 'leafId', 'messages', 'sessionId']);
    expect(allKeys(agent.navigation)).toEqual(['fork', 'leafId', 'list', 'moveLeaf']);
    expect(allKeys(agent.compaction)).toEqual(['compact']);
    for (const part of [agent, agent.main, agent.sessionTree, agent.navigation, agent.compaction])
      expect(Object.isFrozen(part)).toBe(true);
  });

  it('the contribution registries offer contributions, never a whole-registry setter', async () => {
    const { tools, providers } = await facetContext();
    for (const registry of [tools, providers])
      expect(allKeys(registry)).toEqual(['add', 'current', 'onRebuild', 'rebuild']);
  });

  it('the context cannot be extended or overwritten by a facet', async () => {
    const context = await facetContext();
    expect(() => Object.assign(context, { harness: {} })).toThrow(TypeError);
    expect(() => Object.assign(context.agent, { main: {} })).toThrow(TypeError);
  });
});

describe('host-reserved capabilities at the type level', () => {
  it('a facet context type has no harness, session, transport or whole-registry setter', () => {
    expectTypeOf<CodingAgentSessionPluginContext>().not.toHaveProperty('harness');
    expectTypeOf<CodingAgentSessionPluginContext>().not.toHaveProperty('session');
    expectTypeOf<CodingAgentSessionPluginContext>().not.toHaveProperty('close');
    expectTypeOf<CodingAgentSessionPluginContext>().not.toHaveProperty('rpc');
    expectTypeOf<CodingAgentSessionPluginContext>().not.toHaveProperty('transport');
    expectTypeOf<CodingAgentSessionPluginContext>().not.toHaveProperty('registry');
    expectTypeOf<CodingAgentSessionPluginContext>().not.toHaveProperty('setTools');
    expectTypeOf<CodingAgentSessionPluginContext>().toHaveProperty('provide');
  });

  it('the agent view types expose no close, mutation or unscoped registration', () => {
    expectTypeOf<AgentPluginScope>().not.toHaveProperty('harness');
    expectTypeOf<AgentPluginScope>().not.toHaveProperty('close');
    expectTypeOf<AgentLanePluginView>().not.toHaveProperty('stop');
    expectTypeOf<AgentLanePluginView>().not.toHaveProperty('close');
    expectTypeOf<AgentPluginScope['sessionTree']>().toEqualTypeOf<SessionTree>();
    expectTypeOf<SessionTree>().not.toHaveProperty('add');
    expectTypeOf<SessionTree>().not.toHaveProperty('mutate');
    expectTypeOf<CodingAgentSessionPluginContext['hook']>().returns.toEqualTypeOf<() => void>();
    expectTypeOf<CodingAgentSessionPluginContext['on']>().returns.toEqualTypeOf<() => void>();
  });

  it('a contribution registry type has no setter for the whole registry', () => {
    expectTypeOf<ScopedContributions<unknown>>().not.toHaveProperty('set');
    expectTypeOf<ScopedContributions<unknown>>().not.toHaveProperty('setAll');
    expectTypeOf<ScopedContributions<unknown>>().not.toHaveProperty('replace');
    expectTypeOf<ScopedContributions<unknown>['add']>().returns.toEqualTypeOf<() => void>();
  });
});
