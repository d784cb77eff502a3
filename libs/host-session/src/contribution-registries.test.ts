import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentToolResult, AnyAgentTool, ModelProvider, ToolResultMessage } from '@pi/agent';
import { createScriptedProvider, readSessionLines } from '@pi/agent/testing';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { eventually } from '@pi/test-support';
import type { CodingAgentSessionPluginContext, ScopedContributions, SessionFacet } from '@pi/plugin-api';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from './testing';

const fixtures: TestSessionHost[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

async function startHost(facets: Array<{ id: string; facet: SessionFacet }>): Promise<TestSessionHost> {
  const fixture = await startTestSessionHost({ facets });
  fixtures.push(fixture);
  return fixture;
}

/** The registry's state after its next rebuild (rebuilds are coalesced into a microtask after a change). */
function nextRebuild<T>(registry: ScopedContributions<T>): Promise<ReadonlyMap<string, T>> {
  return new Promise((resolve) => {
    const stop = registry.onRebuild((state) => {
      stop();
      resolve(state);
    });
  });
}

/** A facet that only hands its context to the test, so the test decides when (and whether) it contributes. */
function captured(
  contexts: Map<string, CodingAgentSessionPluginContext>,
  id: string,
  setup: SessionFacet = () => undefined,
) {
  return {
    id,
    facet: async (context: CodingAgentSessionPluginContext) => {
      contexts.set(id, context);
      await setup(context);
    },
  };
}

function contextOf(
  contexts: Map<string, CodingAgentSessionPluginContext>,
  id: string,
): CodingAgentSessionPluginContext {
  const context = contexts.get(id);
  if (context === undefined) throw new Error(`the facet ${id} did not run`);
  return context;
}

function silentProvider(id: string, name = id): ModelProvider {
  return {
    id,
    name,
    models: () => [],
    stream: async function* () {
      // Never asked to answer: these tests only compose the registry.
    },
  };
}

describe('ordered provider contributions', () => {
  it('end in manifest order, whatever order the plugins registered them in, and later plugins win an id', async () => {
    const contexts = new Map<string, CodingAgentSessionPluginContext>();
    const third = captured(contexts, '@t/third', (context) => {
      context.providers.add((draft) => draft.set('three', silentProvider('three')));
      context.providers.add((draft) => draft.set('shared', silentProvider('shared', 'from third')));
    });
    const first = captured(contexts, '@t/first', (context) =>
      context.onActivate(() => {
        context.providers.add((draft) => draft.set('one', silentProvider('one')));
        context.providers.add((draft) => draft.set('shared', silentProvider('shared', 'from first')));
      }),
    );
    await startHost([first, captured(contexts, '@t/second'), third]);
    const registry = contextOf(contexts, '@t/second').providers;
    // The last to register: after the host has started.
    let rebuilt = nextRebuild(registry);
    const removeTwo = registry.add((draft) => draft.set('two', silentProvider('two')));

    expect([...(await rebuilt).keys()]).toEqual(['one', 'shared', 'two', 'three']);
    expect(registry.current().get('shared')?.name).toBe('from third');

    rebuilt = nextRebuild(registry);
    removeTwo();
    expect([...(await rebuilt).keys()]).toEqual(['one', 'shared', 'three']);
    rebuilt = nextRebuild(registry);
    registry.add((draft) => draft.set('two', silentProvider('two')));
    expect([...(await rebuilt).keys()]).toEqual(['one', 'shared', 'two', 'three']);
  });

  it('tells every onRebuild listener about each rebuild, and removes a listener with its remover', async () => {
    const contexts = new Map<string, CodingAgentSessionPluginContext>();
    await startHost([captured(contexts, '@t/a')]);
    const providers = contextOf(contexts, '@t/a').providers;
    const seen: string[][] = [];
    const stop = providers.onRebuild((state) => void seen.push([...state.keys()]));

    providers.add((draft) => draft.set('x', silentProvider('x')));
    await eventually(() => seen.length === 1);
    stop();
    providers.add((draft) => draft.set('y', silentProvider('y')));
    await eventually(() => providers.current().has('y'));

    expect(seen).toEqual([['x']]);
  });

  it('keeps a throwing rebuild listener from breaking the rebuild, and reports it against its plugin', async () => {
    const contexts = new Map<string, CodingAgentSessionPluginContext>();
    const fixture = await startHost([
      captured(
        contexts,
        '@t/broken',
        (context) =>
          void context.providers.onRebuild(() => {
            throw new Error('listener bug');
          }),
      ),
      captured(contexts, '@t/other'),
    ]);
    const providers = contextOf(contexts, '@t/other').providers;
    providers.add((draft) => draft.set('x', silentProvider('x')));

    await eventually(() => providers.current().has('x'));
    await eventually(() => fixture.host.diagnostics().callbacks.length > 0);
    expect(fixture.host.diagnostics().callbacks.at(-1)).toEqual({
      owner: '@t/broken',
      message: expect.stringContaining('listener bug'),
    });
  });
});

/** Each layer appends its name to the trace and wraps the text, so both the order and the count show. */
function layer(name: string, next: AnyAgentTool, trace: string[]): AnyAgentTool {
  return {
    ...next,
    async execute(args, context): Promise<AgentToolResult> {
      trace.push(name);
      const result = await next.execute(args, context);
      return { ...result, content: [{ type: 'text', text: `${name}(${result.content[0]?.text ?? ''})` }] };
    },
  };
}

describe('tool wrappers', () => {
  const trace: string[] = [];
  const core: AnyAgentTool = {
    name: 'bash',
    label: 'Bash',
    description: 'runs a command',
    executionMode: 'sequential',
    parameters: z.object({ command: z.string() }),
    execute: async () => {
      trace.push('core');
      return { content: [{ type: 'text', text: 'core' }], details: null };
    },
  };
  const wrapper = (name: string) => (context: CodingAgentSessionPluginContext) =>
    context.tools.add((draft) => draft.wrap('bash', (tool) => layer(name, tool, trace)));

  async function runBash(tools: ReadonlyMap<string, AnyAgentTool>): Promise<string | undefined> {
    trace.length = 0;
    const result = await tools.get('bash')?.execute({ command: 'ls' }, BACKGROUND_CONTEXT);
    return result?.content[0]?.text;
  }

  it('compose once in manifest order, and rebuild without a removed wrapper', async () => {
    const contexts = new Map<string, CodingAgentSessionPluginContext>();
    const removers = new Map<string, () => void>();
    const keep = (name: string) => (context: CodingAgentSessionPluginContext) =>
      void removers.set(name, wrapper(name)(context));
    // Registration order: permission, telemetry (setup), sandbox (activation), core (after startup).
    await startHost([
      captured(contexts, '@t/core'),
      captured(contexts, '@t/sandbox', (context) => context.onActivate(() => keep('sandbox')(context))),
      captured(contexts, '@t/permission', keep('permission')),
      captured(contexts, '@t/telemetry', keep('telemetry')),
    ]);
    const tools = contextOf(contexts, '@t/core').tools;
    let rebuilt = nextRebuild(tools);
    tools.add((draft) => draft.set('bash', core));

    expect(await runBash(await rebuilt)).toBe('telemetry(permission(sandbox(core)))');
    expect(trace).toEqual(['telemetry', 'permission', 'sandbox', 'core']);

    rebuilt = nextRebuild(tools);
    removers.get('permission')?.();
    expect(await runBash(await rebuilt)).toBe('telemetry(sandbox(core))');
    expect(trace).toEqual(['telemetry', 'sandbox', 'core']);

    // Back again, registered last of all: still in its manifest place, and still applied once.
    rebuilt = nextRebuild(tools);
    keep('permission')(contextOf(contexts, '@t/permission'));
    expect(await runBash(await rebuilt)).toBe('telemetry(permission(sandbox(core)))');
    expect(trace).toEqual(['telemetry', 'permission', 'sandbox', 'core']);
  });

  it('reach the harness: a model call of the tool runs the composed chain and its result is durable', async () => {
    const provider = createScriptedProvider({
      turns: [
        [
          { type: 'tool_call', id: 'call-1', name: 'bash', arguments: { command: 'ls' } },
          { type: 'done', stopReason: 'tool_calls' },
        ],
        [
          { type: 'text_delta', delta: 'done' },
          { type: 'done', stopReason: 'stop' },
        ],
      ],
    });
    const contexts = new Map<string, CodingAgentSessionPluginContext>();
    const fixture = await startHost([
      { id: '@t/model', facet: modelProviderFacet(provider) },
      { id: '@t/core', facet: (context) => void context.tools.add((draft) => draft.set('bash', core)) },
      { id: '@t/sandbox', facet: (context) => void wrapper('sandbox')(context) },
      {
        id: '@t/telemetry',
        facet: (context) => {
          wrapper('telemetry')(context);
          contexts.set('@t/telemetry', context);
        },
      },
    ]);

    const lane = contextOf(contexts, '@t/telemetry').agent.main;
    const accepted = await lane.prompt(
      [{ role: 'user', content: [{ type: 'text', text: 'list files' }] }],
      BACKGROUND_CONTEXT,
    );
    expect(await lane.settled(accepted._unsafeUnwrap().operationId)).toEqual({ outcome: 'completed', error: null });

    const results = (await readSessionLines(fixture.sessionFile)).flatMap((line) => {
      const message = line['message'] as ToolResultMessage | undefined;
      return message?.role === 'tool' ? [message.content[0]?.text] : [];
    });
    expect(results).toEqual(['telemetry(sandbox(core))']);
    expect(provider.requests[0]?.request.tools.map((tool) => tool.name)).toEqual(['bash']);
  });
});
