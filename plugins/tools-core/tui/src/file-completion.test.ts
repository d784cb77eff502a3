import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { startRpcFixture } from '@pi/test-support';
import { ProjectFiles, type ProjectFile } from '@pi/tools-core';
import { FILE_COMPLETION_LIMIT } from './file-completion';
import { toolsCoreTuiFacet } from './tools-core-tui-facet';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The TUI facet against a stand-in of the session's ProjectFiles that answers `files` to every query. */
async function startWith(files: ProjectFile[]) {
  const questions: Array<{ query: string; limit: number }> = [];
  const rpc = await startRpcFixture('loopback', {
    provide: (registry) =>
      registry.provide(ProjectFiles, {
        async search(query, limit) {
          questions.push({ query, limit });
          return { matches: files.filter((file) => file.path.includes(query)), truncated: false };
        },
      }),
  });
  cleanups.push(() => rpc.close());
  const sent: string[] = [];
  const tui: TestTuiHost = await startTestTuiHost({
    facets: {
      '@pi/tools-core': toolsCoreTuiFacet,
      '@test/chat': (context) => void context.editor.onSubmit((text) => void sent.push(text)),
    },
    client: await rpc.connect(),
  });
  cleanups.push(() => tui.stop());
  return { tui, questions, sent };
}

const file = (path: string): ProjectFile => ({ path, isDirectory: false });

describe('@ file completion', () => {
  it('is named in the welcome of an empty session', async () => {
    const { tui } = await startWith([]);
    await tui.waitForScreen((screen) => screen.includes('@name completes the path of a project file.'));
  });

  it('asks the session for the word after @ and shows its paths; Enter inserts the highlighted one and sends nothing', async () => {
    const { tui, questions, sent } = await startWith([file('src/app.ts'), file('docs/app.md')]);
    await tui.type('compare @app');
    await tui.waitForScreen((screen) => screen.includes('› @src/app.ts'));
    expect(questions.at(-1)).toEqual({ query: 'app', limit: FILE_COMPLETION_LIMIT });
    await tui.type('\x1b[B\r');
    expect(tui.screen()).toContain('compare @docs/app.md ');
    expect(sent).toEqual([]);
    await tui.type('and @src');
    await tui.waitForScreen((screen) => screen.includes('› @src/app.ts'));
    await tui.type('\t\r');
    expect(sent).toEqual(['compare @docs/app.md and @src/app.ts ']);
  });

  it('inserts a directory without a space and goes on with its contents; quotes a path with whitespace', async () => {
    const { tui, questions } = await startWith([{ path: 'notes', isDirectory: true }, file('notes/my plan.md')]);
    await tui.type('@not');
    await tui.waitForScreen((screen) => screen.includes('› @notes/'));
    await tui.type('\t');
    await tui.waitForScreen(
      (screen) => questions.at(-1)?.query === 'notes/' && screen.includes('› @"notes/my plan.md"'),
    );
    await tui.type('\t');
    expect(tui.screen()).toContain('@"notes/my plan.md" ');
  });
});
