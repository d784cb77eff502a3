import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { createOfflineProvider } from '@pi/model-providers';
import { ConfirmInteraction, type ConfirmResponse } from '@pi/permissions';
import { permissionsSessionFacet, pluginId as permissionsId } from '@pi/permissions-session';
import type { AnyAgentTool, CodingAgentSessionPluginContext, SessionFacet } from '@pi/plugin-api';
import { eventually } from '@pi/test-support';
import { pluginId as telemetryId, toolTelemetrySessionFacet } from '@pi/tool-telemetry-session';

// telemetry(permissions(core)) as the spec composes it, with the real plugins' session facets around a stand-in
// core `bash`, in a real session host. (In tools/ because a feature may not import another feature.)

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Tools = CodingAgentSessionPluginContext['tools'];

/** Keeps the removers of a facet's tool contributions, so a test can take them away as disposing the plugin would. */
function removable(facet: SessionFacet): { facet: SessionFacet; remove(): void } {
  const removers: Array<() => void> = [];
  return {
    facet: (context) =>
      facet({
        ...context,
        tools: {
          ...context.tools,
          add: (contribution) => {
            const remove = context.tools.add(contribution);
            removers.push(remove);
            return remove;
          },
        },
      }),
    remove: () => removers.splice(0).forEach((remove) => remove()),
  };
}

interface Composed {
  readonly session: TestSessionHost;
  readonly telemetry: InMemoryTelemetry;
  readonly tools: Tools;
  /** Commands the stand-in core bash ran. */
  readonly ran: string[];
  /** Commands the client was asked to confirm. */
  readonly asked: string[];
  /** Answers of the client, in order (`allow_once` once they run out). */
  readonly answers: Array<ConfirmResponse['decision']>;
  removePermissions(): void;
  bash(command: string): Promise<void>;
  /** The spans of tool executions so far. */
  toolSpans(): ReturnType<InMemoryTelemetry['spans']>;
}

async function compose(order: ReadonlyArray<'permissions' | 'telemetry'>): Promise<Composed> {
  const telemetry = installInMemoryTelemetry();
  cleanups.push(() => telemetry.uninstall());
  const ran: string[] = [];
  const core: AnyAgentTool = {
    name: 'bash',
    label: 'Bash',
    description: 'stands in for the core bash tool',
    executionMode: 'sequential',
    parameters: z.object({ command: z.string() }),
    execute: async (args: { command: string }) => {
      ran.push(args.command);
      return { content: [{ type: 'text', text: `ran ${args.command}` }], details: null };
    },
  };
  const permissions = removable(permissionsSessionFacet);
  const plugins = {
    permissions: { id: permissionsId, facet: permissions.facet },
    telemetry: { id: telemetryId, facet: toolTelemetrySessionFacet },
  };
  let driver: CodingAgentSessionPluginContext | undefined;
  const session = await startTestSessionHost({
    facets: [
      { id: '@test/model', facet: modelProviderFacet(createOfflineProvider()) },
      { id: '@test/core', facet: (context) => void context.tools.add((draft) => draft.set('bash', core)) },
      ...order.map((name) => plugins[name]),
      { id: '@test/driver', facet: (context) => void (driver = context) },
    ],
  });
  cleanups.push(() => session.close());
  if (driver === undefined) throw new Error('the driver facet did not run');
  const { agent, tools } = driver;

  const asked: string[] = [];
  const answers: Array<ConfirmResponse['decision']> = [];
  const client = await session.connect();
  client.handle(ConfirmInteraction, async (request) => {
    asked.push(request.summary);
    return { decision: answers.shift() ?? 'allow_once' };
  });
  await eventually(() => session.host.rpc.stats().some((stats) => stats.subscriptions > 0));

  return {
    session,
    telemetry,
    tools,
    ran,
    asked,
    answers,
    removePermissions: permissions.remove,
    async bash(command) {
      const text = `/tool bash ${JSON.stringify({ command })}`;
      const accepted = await agent.main.prompt(
        [{ role: 'user', content: [{ type: 'text', text }] }],
        BACKGROUND_CONTEXT,
      );
      if (accepted.isErr()) throw new Error(accepted.error.message);
      expect(await agent.main.settled(accepted.value.operationId)).toEqual({ outcome: 'completed', error: null });
    },
    toolSpans: () => telemetry.spans().filter((span) => span.name.startsWith('tool.')),
  };
}

function nextRebuild(tools: Tools): Promise<ReadonlyMap<string, AnyAgentTool>> {
  return new Promise((resolve) => {
    const stop = tools.onRebuild((state) => {
      stop();
      resolve(state);
    });
  });
}

describe('telemetry(permissions(core))', () => {
  it('records one span per execution around the confirmation, which is asked once per call', async () => {
    const composed = await compose(['permissions', 'telemetry']);

    await composed.bash('echo one');
    await composed.bash('echo two');

    expect(composed.asked).toEqual(['echo one', 'echo two']);
    expect(composed.ran).toEqual(['echo one', 'echo two']);
    const spans = composed.toolSpans();
    expect(spans.map(({ name, attributes }) => ({ name, attributes }))).toEqual([
      { name: 'tool.bash', attributes: { 'pi.tool.name': 'bash', 'pi.tool.outcome': 'ok' } },
      { name: 'tool.bash', attributes: { 'pi.tool.name': 'bash', 'pi.tool.outcome': 'ok' } },
    ]);
    // Each is the child of the harness's own span of the call.
    const harnessSpans = composed.telemetry.spans().filter((span) => span.name === 'agent.tool');
    expect(spans.map((span) => span.parentSpanId)).toEqual(harnessSpans.map((span) => span.spanId));
    // Never the command.
    expect(JSON.stringify(spans)).not.toContain('echo');
  });

  it('records a denied call as an error outcome, and the core tool does not run', async () => {
    const composed = await compose(['permissions', 'telemetry']);
    composed.answers.push('deny');

    await composed.bash('rm -rf build');

    expect(composed.ran).toEqual([]);
    expect(composed.toolSpans().map((span) => span.attributes['pi.tool.outcome'])).toEqual(['error']);
  });

  it('removing the middle plugin rebuilds to telemetry(core): nothing is asked, one span per execution', async () => {
    const composed = await compose(['permissions', 'telemetry']);
    await composed.bash('echo before');

    const rebuilt = nextRebuild(composed.tools);
    composed.removePermissions();
    await rebuilt;
    await composed.bash('echo after');
    await composed.bash('echo again');

    expect(composed.asked).toEqual(['echo before']);
    expect(composed.ran).toEqual(['echo before', 'echo after', 'echo again']);
    expect(composed.toolSpans()).toHaveLength(3);
  });

  it('composes in manifest order: listed before permissions, telemetry wraps only the core tool', async () => {
    const composed = await compose(['telemetry', 'permissions']);
    composed.answers.push('deny', 'allow_once');

    await composed.bash('echo denied');
    await composed.bash('echo allowed');

    expect(composed.asked).toEqual(['echo denied', 'echo allowed']);
    expect(composed.ran).toEqual(['echo allowed']);
    // permissions(telemetry(core)): the denied call never reached the traced layer.
    expect(composed.toolSpans().map((span) => span.attributes['pi.tool.outcome'])).toEqual(['ok']);
  });
});
