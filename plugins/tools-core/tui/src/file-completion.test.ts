import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { TRANSPORTS, eventually, startRpcFixture, type TransportKind } from '@pi/test-support';
import { ProjectFiles, type ProjectFile } from '@pi/tools-core';
import { FILE_COMPLETION_LIMIT } from './file-completion';
import { toolsCoreTuiFacet } from './tools-core-tui-facet';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The TUI facet against a stand-in of the session's ProjectFiles that answers `files` to every query. */
async function startWith(transport: TransportKind, files: ProjectFile[], failure?: Error) {
  const questions: Array<{ query: string; limit: number }> = [];
  const rpc = await startRpcFixture(transport, {
    provide: (registry) =>
      registry.provide(ProjectFiles, {
        async search(query, limit) {
          questions.push({ query, limit });
          if (failure !== undefined) throw failure;
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

describe.each(TRANSPORTS)('@ file completion over %s', (transport) => {
  it('is named in the welcome of an empty session', async () => {
    const { tui } = await startWith(transport, []);
    await tui.waitForScreen((screen) => screen.includes('@name completes the path of a project file.'));
  });

  it('asks the session for the word after @ and shows its paths; Enter inserts the highlighted one and sends nothing', async () => {
    const { tui, questions, sent } = await startWith(transport, [file('src/app.ts'), file('docs/app.md')]);
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

  it('a session that fails the search shows no menu, keeps what was typed, and records the failure', async () => {
    const { tui, questions, sent } = await startWith(transport, [], new Error('the disk is gone'));
    await tui.type('read @app');
    await eventually(() => tui.host.failures().some((failure) => failure.includes('completing "@app"')));
    expect(questions.at(-1)?.query).toBe('app');
    expect(tui.screen()).toContain('read @app');
    expect(tui.screen()).not.toContain('› @');
    await tui.type('\r');
    expect(sent).toEqual(['read @app']);
  });

  it('inserts a directory without a space and goes on with its contents; quotes a path with whitespace', async () => {
    const { tui, questions } = await startWith(transport, [
      { path: 'notes', isDirectory: true },
      file('notes/my plan.md'),
    ]);
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
