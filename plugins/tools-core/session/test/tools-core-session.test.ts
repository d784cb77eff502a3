import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentMessage, SessionEntry, ToolResultMessage } from '@pi/agent';
import { BACKGROUND_CONTEXT, type AgentLanePluginView, type AnyAgentTool } from '@pi/plugin-api';
import { modelProviderFacet, startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { createOfflineProvider } from '@pi/model-providers';
import { pluginId, toolsCoreSessionFacet } from '../src/index';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Driven {
  readonly fixture: TestSessionHost;
  readonly project: string;
  readonly tools: () => ReadonlyMap<string, AnyAgentTool>;
  /** Prompts the main lane (chat is another plugin) and waits for the run to settle. */
  prompt(text: string): Promise<void>;
  /** The durable tool results, in order. */
  results(): Promise<ToolResultMessage[]>;
}

/** A real session host running the offline model and the tools-core facet on a temporary project directory. */
async function startSession(config: unknown = null): Promise<Driven> {
  let lane: AgentLanePluginView | undefined;
  let tools: (() => ReadonlyMap<string, AnyAgentTool>) | undefined;
  const fixture = await startTestSessionHost({
    facets: [
      { id: '@test/model', facet: modelProviderFacet(createOfflineProvider()) },
      { id: pluginId, facet: toolsCoreSessionFacet, config: config as never },
      {
        id: '@test/driver',
        facet: (context) => {
          lane = context.agent.main;
          tools = () => context.tools.current();
        },
      },
    ],
  });
  closers.push(() => fixture.close());
  if (lane === undefined || tools === undefined) throw new Error('the driver facet did not run');
  const driven = lane;
  const project = join(fixture.directory, 'project');
  await mkdir(project, { recursive: true });
  return {
    fixture,
    project,
    tools,
    async prompt(text) {
      const accepted = await driven.prompt([{ role: 'user', content: [{ type: 'text', text }] }], BACKGROUND_CONTEXT);
      if (accepted.isErr()) throw new Error(accepted.error.message);
      await driven.settled(accepted.value.operationId);
    },
    async results() {
      const lines = (await readFile(fixture.sessionFile, 'utf8')).split('\n').filter((line) => line !== '');
      return lines
        .slice(1)
        .map((line) => JSON.parse(line) as SessionEntry)
        .flatMap((entry) => (entry.kind === 'message' ? [entry.message] : []))
        .filter((message: AgentMessage): message is ToolResultMessage => message.role === 'tool');
    },
  };
}

describe('the tools-core session facet', () => {
  it('contributes the seven coding tools', async () => {
    const { tools } = await startSession();
    expect([...tools().keys()].filter((name) => name !== 'question').sort()).toEqual(
      ['bash', 'edit', 'find', 'grep', 'ls', 'read', 'write'].sort(),
    );
  });

  it('works in the session’s working directory, driven by the offline model from plain prompts', async () => {
    const session = await startSession();
    await writeFile(join(session.project, 'README.md'), '# Demo\n');
    await writeFile(join(session.project, 'greet.txt'), 'hello world\n');

    await session.prompt('read README.md');
    await session.prompt('replace hello with goodbye in greet.txt');
    await session.prompt('run `cat greet.txt`');
    await session.prompt('read ../data/sessions/test.jsonl');

    const [read, edit, bash, escape] = await session.results();
    expect(read).toMatchObject({ toolName: 'read', isError: false, content: [{ text: '# Demo' }] });
    expect(edit).toMatchObject({ toolName: 'edit', isError: false, details: { path: 'greet.txt', replacements: 1 } });
    expect(await readFile(join(session.project, 'greet.txt'), 'utf8')).toBe('goodbye world\n');
    expect(bash).toMatchObject({ toolName: 'bash', isError: false, content: [{ text: 'goodbye world' }] });
    expect(escape).toMatchObject({ toolName: 'read', isError: true, details: { failure: 'outside_workspace' } });
  });

  it('refuses a config, which it does not take', async () => {
    await expect(startSession({ timeout: 5 })).rejects.toThrow(/takes no config/);
  });
});
