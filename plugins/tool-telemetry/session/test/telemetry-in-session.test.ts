import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import type { AnyAgentTool, CodingAgentSessionPluginContext, SessionFacet } from '@pi/plugin-api';
import { BACKGROUND_CONTEXT } from '@pi/plugin-api';
import { pluginId, toolTelemetrySessionFacet } from '../src/index';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function standIn(name: string): AnyAgentTool {
  return {
    name,
    label: name,
    description: `stands in for ${name}`,
    executionMode: 'parallel',
    parameters: z.object({}),
    execute: async () => ({ content: [{ type: 'text', text: `${name} ran` }], details: null }),
  };
}

const contributes =
  (...tools: AnyAgentTool[]): SessionFacet =>
  (context) =>
    void context.tools.add((draft) => tools.forEach((tool) => draft.set(tool.name, tool)));

interface Started {
  readonly telemetry: InMemoryTelemetry;
  readonly tools: CodingAgentSessionPluginContext['tools'];
  readonly core: AnyAgentTool;
  readonly late: AnyAgentTool;
  /** Removes the plugin's contributions, as disposing it would. */
  removeTelemetry(): void;
}

/** Keeps the removers of a facet's tool contributions, so a test can take them away as disposal would. */
function removable(facet: SessionFacet, removers: Array<() => void>): SessionFacet {
  return (context) =>
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
    });
}

/** A session host: a core tool, then @pi/tool-telemetry, then a plugin contributing a tool after it. */
async function start(): Promise<Started> {
  const telemetry = installInMemoryTelemetry();
  cleanups.push(() => telemetry.uninstall());
  const core = standIn('read');
  const late = standIn('late');
  const removers: Array<() => void> = [];
  let tools: CodingAgentSessionPluginContext['tools'] | undefined;
  const fixture: TestSessionHost = await startTestSessionHost({
    facets: [
      { id: '@test/core', facet: contributes(core) },
      { id: pluginId, facet: removable(toolTelemetrySessionFacet, removers) },
      { id: '@test/late', facet: contributes(late) },
      { id: '@test/driver', facet: (context) => void (tools = context.tools) },
    ],
  });
  cleanups.push(() => fixture.close());
  if (tools === undefined) throw new Error('the driver facet did not run');
  return { telemetry, tools, core, late, removeTelemetry: () => removers.forEach((remove) => remove()) };
}

describe('@pi/tool-telemetry in a session host', () => {
  it('traces every tool contributed before it in the manifest, and none after', async () => {
    const { telemetry, tools, late } = await start();
    await tools.current().get('read')?.execute({}, BACKGROUND_CONTEXT);
    expect(telemetry.spans().map((span) => span.name)).toEqual(['tool.read']);
    expect(tools.current().get('late')).toBe(late);
  });

  it('removing the plugin and rebuilding leaves the tools exactly unwrapped', async () => {
    const { telemetry, tools, core, removeTelemetry } = await start();
    const rebuilt = new Promise<ReadonlyMap<string, AnyAgentTool>>((resolve) => {
      const stop = tools.onRebuild((state) => {
        stop();
        resolve(state);
      });
    });
    removeTelemetry();
    const state = await rebuilt;
    expect(state.get('read')).toBe(core);
    await state.get('read')?.execute({}, BACKGROUND_CONTEXT);
    expect(telemetry.spans()).toEqual([]);
  });
});
