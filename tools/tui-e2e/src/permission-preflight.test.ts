import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEntry, ToolResultMessage } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { createOfflineProvider } from '@pi/model-providers';
import { ConfirmInteraction, type ConfirmRequest } from '@pi/permissions';
import { permissionsSessionFacet, pluginId as permissionsId } from '@pi/permissions-session';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { eventually } from '@pi/test-support';
import { pluginId as toolsCoreId, toolsCoreSessionFacet } from '@pi/tools-core-session';

// permissions(core) with the real tools: a call the tool would refuse anyway is refused before anyone is asked to
// allow it. (In tools/ because a feature may not import another feature.)

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Guarded {
  readonly session: TestSessionHost;
  /** The session's working directory. */
  readonly cwd: string;
  /** What the client was asked to confirm. */
  readonly asked: ConfirmRequest[];
  /** Runs one tool call through the offline model and returns its recorded result. */
  call(tool: string, args: Record<string, unknown>): Promise<ToolResultMessage>;
}

async function guardedCoreTools(transport: 'loopback' | 'websocket'): Promise<Guarded> {
  let driver: CodingAgentSessionPluginContext | undefined;
  const session = await startTestSessionHost({
    transport,
    facets: [
      { id: '@test/model', facet: modelProviderFacet(createOfflineProvider()) },
      { id: toolsCoreId, facet: toolsCoreSessionFacet },
      { id: permissionsId, facet: permissionsSessionFacet },
      { id: '@test/driver', facet: (context) => void (driver = context) },
    ],
  });
  cleanups.push(() => session.close());
  if (driver === undefined) throw new Error('the driver facet did not run');
  const { agent, paths } = driver;
  await mkdir(paths.cwd, { recursive: true });

  const asked: ConfirmRequest[] = [];
  const client = await session.connect();
  client.handle(ConfirmInteraction, async (request) => {
    asked.push(request);
    return { decision: 'allow_once' };
  });
  await eventually(() => session.host.rpc.stats().some((stats) => stats.subscriptions > 0));

  return {
    session,
    cwd: paths.cwd,
    asked,
    async call(tool, args) {
      const text = `/tool ${tool} ${JSON.stringify(args)}`;
      const accepted = await agent.main.prompt(
        [{ role: 'user', content: [{ type: 'text', text }] }],
        BACKGROUND_CONTEXT,
      );
      if (accepted.isErr()) throw new Error(accepted.error.message);
      expect(await agent.main.settled(accepted.value.operationId)).toEqual({ outcome: 'completed', error: null });
      const results = (await toolResults(session)).filter((result) => result.toolName === tool);
      const last = results.at(-1);
      if (last === undefined) throw new Error(`no ${tool} result was recorded`);
      return last;
    },
  };
}

async function toolResults(session: TestSessionHost): Promise<ToolResultMessage[]> {
  const lines = (await readFile(session.sessionFile, 'utf8')).split('\n').filter((line) => line !== '');
  return lines
    .slice(1)
    .map((line) => JSON.parse(line) as SessionEntry)
    .flatMap((entry) => (entry.kind === 'message' && entry.message.role === 'tool' ? [entry.message] : []));
}

const textOf = (result: ToolResultMessage) => result.content.map((part) => part.text).join('');

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

describe.each(['loopback', 'websocket'] as const)('permissions(tools-core) over %s', (transport) => {
  it('refuses a write outside the workspace with the workspace error, and never asks for a confirmation', async () => {
    const guarded = await guardedCoreTools(transport);
    const target = join(guarded.cwd, '..', 'escaped.txt');

    const result = await guarded.call('write', { path: '../escaped.txt', content: 'should not exist\n' });

    expect(result.isError).toBe(true);
    expect(result.details).toEqual({ failure: 'outside_workspace', path: null });
    expect(textOf(result)).toMatch(/^Refused: \.\.\/escaped\.txt is outside the working directory\./);
    expect(guarded.asked).toEqual([]);
    expect(await exists(target)).toBe(false);
  });

  it('refuses an edit whose text is not in the file without asking, and still asks for one that can happen', async () => {
    const guarded = await guardedCoreTools(transport);
    await writeFile(join(guarded.cwd, 'a.txt'), 'alpha\n');

    const missing = await guarded.call('edit', { path: 'a.txt', oldText: 'omega', newText: 'beta' });
    expect(missing.details).toMatchObject({ failure: 'no_match', path: 'a.txt' });
    expect(guarded.asked).toEqual([]);

    const edited = await guarded.call('edit', { path: 'a.txt', oldText: 'alpha', newText: 'beta' });
    expect(edited.isError).toBe(false);
    expect(guarded.asked.map((request) => [request.tool, request.summary])).toEqual([['edit', 'a.txt']]);
    expect(await readFile(join(guarded.cwd, 'a.txt'), 'utf8')).toBe('beta\n');
  });
});
