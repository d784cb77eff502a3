import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, it } from 'vitest';
import { chatSessionFacet, pluginId as chatId } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { createPromptResourcesFacet, pluginId as resourcesId } from '@pi/prompt-resources-session';
import { promptResourcesTuiFacet } from '@pi/prompt-resources-tui';
import { createProvidersBuiltinFacet, pluginId as providersId } from '@pi/providers-builtin-session';
import { providersBuiltinTuiFacet } from '@pi/providers-builtin-tui';
import { TRANSPORTS, type TransportKind } from '@pi/test-support';
import { shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A real session (the offline model, chat and prompt-resources) on a directory holding `files`, written before it
 * starts, and a TUI running the same plugins' TUI facets over `transport`.
 */
async function startProject(
  transport: TransportKind,
  files: Record<string, string>,
): Promise<{ tui: TestTuiHost; directory: string }> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-tui-resources-'));
  cleanups.push(() => rm(directory, { recursive: true, force: true }));
  for (const [path, content] of Object.entries({ 'project/.git/HEAD': '', ...files })) {
    await mkdir(dirname(join(directory, path)), { recursive: true });
    await writeFile(join(directory, path), content);
  }
  const session = await startTestSessionHost({
    transport,
    directory,
    facets: [
      { id: providersId, facet: createProvidersBuiltinFacet({ env: {}, watchDebounceMs: 10 }) },
      { id: chatId, facet: chatSessionFacet },
      { id: resourcesId, facet: createPromptResourcesFacet({ homeDir: join(directory, 'home') }) },
    ],
  });
  cleanups.push(() => session.close());
  const tui = await startTestTuiHost({
    facets: {
      [providersId]: providersBuiltinTuiFacet,
      [chatId]: chatTuiFacet,
      [resourcesId]: promptResourcesTuiFacet,
    },
    client: await session.connect(),
    columns: 120,
  });
  cleanups.push(() => tui.stop());
  return { tui, directory };
}

describe.each(TRANSPORTS)('skills and prompt templates against a real session over %s', (transport) => {
  it('a project template is in the / menu and /name args sends its text with the arguments to the model', async () => {
    const { tui } = await startProject(transport, {
      'project/.pi/prompts/explain.md': '---\ndescription: Explain something simply\n---\nExplain $1 in ${@:2}.',
    });
    await tui.type('/expl');
    await shows(tui, 'Explain something simply');
    await tui.type('ain closures "one sentence"\r');
    await shows(tui, 'You said: Explain closures in one sentence.');
  });

  it('a user skill is /skill:name, which sends the skill and the request to the model', async () => {
    const { tui } = await startProject(transport, {
      'config/skills/haiku/SKILL.md': '---\nname: haiku\ndescription: Answers in a haiku\n---\nAnswer in 5-7-5.',
    });
    await tui.type('/skill:h');
    await shows(tui, 'Skill: Answers in a haiku');
    await tui.type('aiku about rain\r');
    await shows(tui, 'You said: <skill name="haiku"');
    await shows(tui, 'Answer in 5-7-5.');
    await shows(tui, 'about rain');
  });

  it('/reload reads the templates and skills again: one added on disk since is in the / menu and expands', async () => {
    const { tui, directory } = await startProject(transport, { 'project/.pi/prompts/old.md': 'The old one.' });
    await tui.type('/ol');
    await shows(tui, '/old');
    await tui.type('\x7f\x7f\x7f');
    await writeFile(join(directory, 'project', '.pi', 'prompts', 'fresh.md'), 'Freshly $1.');
    await tui.type('/reload\r');
    await shows(tui, 'Reloaded');
    await tui.type('/fre');
    await shows(tui, '/fresh [args]');
    await tui.type('sh made\r');
    await shows(tui, 'You said: Freshly made.');
  });
});
