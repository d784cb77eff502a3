import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createScriptedProvider, type ScriptedProvider } from '@pi/agent/testing';
import { startTestSessionHost, modelProviderFacet, type TestSessionHost } from '@pi/host-session/testing';
import {
  BACKGROUND_CONTEXT,
  SettingsBackendService,
  type CodingAgentSessionPluginContext,
  type SessionFacet,
} from '@pi/plugin-api';
import { Settings } from '@pi/settings';
import { memorySettings, type MemorySettings } from '@pi/settings/testing';
import { SystemPrompt, type SystemPromptService } from '@pi/system-prompt';
import { eventually } from '@pi/test-support';
import { createSystemPromptFacet, pluginId } from '../src/index';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const todoTool: SessionFacet = (context) =>
  void context.tools.add((draft) =>
    draft.set('todo', {
      name: 'todo',
      label: 'Todo',
      description: 'Keep the task list shown beside the transcript. Replaces the whole list.',
      executionMode: 'sequential',
      parameters: z.object({}),
      execute: async () => ({ content: [{ type: 'text', text: 'ok' }], details: null }),
    }),
  );

interface Session {
  readonly fixture: TestSessionHost;
  readonly provider: ScriptedProvider;
  readonly project: string;
  readonly service: SystemPromptService;
  readonly settings: MemorySettings;
  /** Runs one prompt to its end and returns the system prompt its model request carried. */
  ask(text: string): Promise<string | undefined>;
}

/** A session on `files` (paths relative to the test's directory), with settings, a tool and the system prompt. */
async function startSession(
  transport: 'loopback' | 'websocket',
  files: Record<string, string>,
  settings: MemorySettings = memorySettings(),
): Promise<Session> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-system-prompt-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(directory, path, '..'), { recursive: true });
    await writeFile(join(directory, path), text);
  }
  await mkdir(join(directory, 'project'), { recursive: true });
  const reply = [{ type: 'text_delta', delta: 'ok' } as const, { type: 'done', stopReason: 'stop' } as const];
  const provider = createScriptedProvider({ turns: [reply, reply, reply, reply] });
  let driver: CodingAgentSessionPluginContext | undefined;
  const fixture = await startTestSessionHost({
    transport,
    directory,
    facets: [
      {
        id: '@pi/settings',
        facet: (context) => {
          context.provide(Settings, settings);
          context.provide(SettingsBackendService, settings);
        },
      },
      { id: '@test/model', facet: modelProviderFacet(provider) },
      { id: pluginId, facet: createSystemPromptFacet({ now: () => new Date(2026, 11, 2), platform: 'linux' }) },
      { id: '@test/todo', facet: todoTool },
      { id: '@test/driver', facet: (context) => void (driver = context) },
    ],
  });
  cleanups.push(() => fixture.close());
  if (driver === undefined) throw new Error('the driver facet did not run');
  const { agent } = driver;
  const client = await fixture.connect();
  const service = await client.use(SystemPrompt);
  return {
    fixture,
    provider,
    project: join(directory, 'project'),
    service,
    settings,
    async ask(text) {
      const accepted = await agent.main.prompt(
        [{ role: 'user', content: [{ type: 'text', text }] }],
        BACKGROUND_CONTEXT,
      );
      const { operationId } = accepted._unsafeUnwrap();
      expect((await agent.main.settled(operationId)).outcome).toBe('completed');
      return provider.requests.at(-1)?.request.systemPrompt;
    },
  };
}

describe.each(['loopback', 'websocket'] as const)('the system prompt in a session (%s)', (transport) => {
  it("carries the tools, the working directory, the date and the project's AGENTS.md to the model", async () => {
    const session = await startSession(transport, {
      'project/AGENTS.md': 'Run npm test before you finish.',
      'config/AGENTS.md': 'Answer in English.',
    });
    const prompt = await session.ask('hi');

    expect(prompt).toContain('You are pi, a coding agent.');
    expect(prompt).toContain('- todo: Keep the task list shown beside the transcript.');
    expect(prompt).toContain(`Working directory: ${session.project}`);
    expect(prompt).toContain('Date: 2026-12-02');
    expect(prompt?.indexOf('Answer in English.')).toBeLessThan(prompt?.indexOf('Run npm test') ?? -1);
    expect(session.service.status.value).toMatchObject({
      loaded: true,
      contextFilesEnabled: true,
      contextFiles: [
        expect.objectContaining({ path: join(session.fixture.directory, 'config', 'AGENTS.md') }),
        { path: join(session.project, 'AGENTS.md'), display: 'AGENTS.md', chars: 31 },
      ],
    });
    expect(await session.service.text(BACKGROUND_CONTEXT)).toBe(prompt);
  });

  it('reads an edited AGENTS.md on reload, and the next request carries it', async () => {
    const session = await startSession(transport, { 'project/AGENTS.md': 'Old rule.' });
    expect(await session.ask('one')).toContain('Old rule.');
    await writeFile(join(session.project, 'AGENTS.md'), 'New rule.');
    await session.service.reload(BACKGROUND_CONTEXT);
    await eventually(() => session.service.status.value.contextFiles.some((file) => file.chars === 9));
    const prompt = await session.ask('two');
    expect(prompt).toContain('New rule.');
    expect(prompt).not.toContain('Old rule.');
  });

  it('leaves the context files out when the settings turn them off, and uses .pi/SYSTEM.md', async () => {
    const session = await startSession(
      transport,
      { 'project/AGENTS.md': 'A rule.', 'project/.pi/SYSTEM.md': 'You only review code.' },
      memorySettings({ 'systemPrompt.contextFiles': false }),
    );
    const prompt = await session.ask('hi');
    expect(prompt?.startsWith('You only review code.')).toBe(true);
    expect(prompt).not.toContain('A rule.');
    expect(session.service.status.value).toMatchObject({
      contextFilesEnabled: false,
      contextFiles: [],
      customPrompt: { display: '.pi/SYSTEM.md' },
    });
  });

  it('drops the context files from the next request once the setting turns them off, and takes them back', async () => {
    const session = await startSession(transport, { 'project/AGENTS.md': 'A rule.' });
    expect(await session.ask('one')).toContain('A rule.');
    session.settings.set('systemPrompt.contextFiles', false);
    await eventually(() => !session.service.status.value.contextFilesEnabled);
    expect(await session.ask('two')).not.toContain('A rule.');
    session.settings.set('systemPrompt.contextFiles', undefined);
    await eventually(() => session.service.status.value.contextFiles.length === 1);
    expect(await session.ask('three')).toContain('A rule.');
  });

  it('reads an edited AGENTS.md again when the plugin set reloads, and a watching client sees it on its proxy', async () => {
    const session = await startSession(transport, { 'project/AGENTS.md': 'Old rule.' });
    expect(session.service.status.value.contextFiles).toMatchObject([{ display: 'AGENTS.md', chars: 9 }]);
    await writeFile(join(session.project, 'AGENTS.md'), 'A newer rule.');
    expect((await session.fixture.host.reload()).ok).toBe(true);
    await eventually(() => session.service.status.value.contextFiles[0]?.chars === 13);
    expect(await session.service.text(BACKGROUND_CONTEXT)).toContain('A newer rule.');
  });
});
