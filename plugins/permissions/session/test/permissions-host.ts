import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { z } from 'zod';
import type { AgentMessage, RunOutcome, SessionEntry, ToolResultMessage } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import {
  TEST_SESSION_TOKEN,
  modelProviderFacet,
  startTestSessionHost,
  type TestSessionHost,
} from '@pi/host-session/testing';
import { createOfflineProvider } from '@pi/model-providers';
import type {
  AgentLanePluginView,
  AnyAgentTool,
  CodingAgentSessionPluginContext,
  JsonValue,
  SessionFacet,
} from '@pi/plugin-api';
import { eventually, openRawChannel, type RawChannel } from '@pi/test-support';
import { loopbackFactory, webSocketFactory } from '@pi/transport-trpc';
import { permissionsSessionFacet, pluginId } from '../src/index';

export type Transport = 'loopback' | 'websocket';

// Registered per test: with isolate off a worker imports this module once for many test files, so a hook
// registered at import would run for the first file only.

/** A stand-in for a core tool: it records each call it runs and answers `<name> ran`. */
export function standInTool(name: string, runs: unknown[]): AnyAgentTool {
  return {
    name,
    label: name,
    description: `stands in for ${name}`,
    executionMode: 'sequential',
    parameters: z.record(z.string(), z.unknown()),
    execute: async (args) => {
      runs.push(args);
      return { content: [{ type: 'text', text: `${name} ran` }], details: null };
    },
  };
}

/** The stand-in core tools: bash, write and edit, which are guarded, and read, which is not. */
export function standInTools() {
  const runs: unknown[] = [];
  const tools = Object.fromEntries(
    ['bash', 'write', 'edit', 'read'].map((name) => [name, standInTool(name, runs)]),
  ) as Record<'bash' | 'write' | 'edit' | 'read', AnyAgentTool>;
  const facet: SessionFacet = (context) =>
    void context.tools.add((draft) => {
      for (const tool of Object.values(tools)) draft.set(tool.name, tool);
    });
  return { runs, tools, facet };
}

/**
 * A facet whose tool contributions can be taken away as its plugin's disposal would (every remover its scope
 * owns, then a rebuild), while the rest of the session keeps running.
 */
export function removable(facet: SessionFacet): { facet: SessionFacet; remove(): void } {
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

export interface PermissionsHost {
  readonly fixture: TestSessionHost;
  readonly runs: unknown[];
  readonly tools: ReturnType<typeof standInTools>['tools'];
  /** The session's tools registry, as a facet sees it. */
  readonly registry: CodingAgentSessionPluginContext['tools'];
  readonly lane: AgentLanePluginView;
  /** Removes the permissions plugin's contributions, as disposing it would. */
  removePermissions(): void;
  /** Starts a run; resolves with its operation id. */
  start(text: string): Promise<string>;
  /** Runs a prompt to its end. */
  run(text: string): Promise<{ operationId: string; outcome: RunOutcome }>;
}

/** A session host on the offline model with the stand-in tools, then @pi/permissions with `config`. */
export async function startPermissionsHost(
  transport: Transport,
  config: JsonValue | null = null,
): Promise<PermissionsHost> {
  const core = standInTools();
  const permissions = removable(permissionsSessionFacet);
  let driver: CodingAgentSessionPluginContext | undefined;
  const fixture = await startTestSessionHost({
    transport,
    facets: [
      { id: '@test/model', facet: modelProviderFacet(createOfflineProvider()) },
      { id: '@test/core-tools', facet: core.facet },
      { id: pluginId, facet: permissions.facet, config },
      { id: '@test/driver', facet: (context) => void (driver = context) },
    ],
  });
  onTestFinished(() => fixture.close());
  if (driver === undefined) throw new Error('the driver facet did not run');
  const { agent, tools: registry } = driver;
  const start = async (text: string) => {
    const accepted = await agent.main.prompt([{ role: 'user', content: [{ type: 'text', text }] }], BACKGROUND_CONTEXT);
    if (accepted.isErr()) throw new Error(`prompt rejected: ${accepted.error.message}`);
    return accepted.value.operationId;
  };
  return {
    fixture,
    runs: core.runs,
    tools: core.tools,
    registry,
    lane: agent.main,
    removePermissions: permissions.remove,
    start,
    async run(text) {
      const operationId = await start(text);
      return { operationId, outcome: await agent.main.settled(operationId) };
    },
  };
}

/** The offline model's grammar for an explicit tool call. */
export function bashPrompt(command: string): string {
  return `/tool bash ${JSON.stringify({ command })}`;
}

/** Waits until `count` connections serve interactions (a client's handler reaches the host asynchronously). */
export function serving(fixture: TestSessionHost, count: number): Promise<void> {
  return eventually(() => fixture.host.rpc.stats().filter((stats) => stats.subscriptions > 0).length === count);
}

/** The durable messages of the session file. */
export async function durableMessages(fixture: TestSessionHost): Promise<AgentMessage[]> {
  const lines = (await readFile(fixture.sessionFile, 'utf8')).split('\n').filter((line) => line !== '');
  return lines
    .slice(1)
    .map((line) => JSON.parse(line) as SessionEntry)
    .flatMap((entry) => (entry.kind === 'message' ? [entry.message] : []));
}

export async function durableToolResults(fixture: TestSessionHost): Promise<ToolResultMessage[]> {
  return (await durableMessages(fixture)).filter((message): message is ToolResultMessage => message.role === 'tool');
}

/** The text of the model's last answer in the session file. */
export async function finalAnswer(fixture: TestSessionHost): Promise<string> {
  const last = (await durableMessages(fixture)).at(-1);
  if (last?.role !== 'assistant') throw new Error(`the last message is not the model's: ${JSON.stringify(last)}`);
  return last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}

/** A client below the typed layer, to send answers a well-behaved client never would. */
export async function rawClient(fixture: TestSessionHost, transport: Transport): Promise<RawChannel> {
  const factory =
    transport === 'loopback'
      ? loopbackFactory(fixture.host.rpc)
      : webSocketFactory({ socketPath: join(fixture.directory, 'session.sock') });
  const raw = await openRawChannel(factory, { token: TEST_SESSION_TOKEN });
  onTestFinished(() => raw.close());
  return raw;
}
