import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '@pi/client';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import type { RemoteService, RemoteState } from '@pi/remote';
import { nextValue } from '@pi/test-support';
import { type FixtureWorkspace, type ToolRun, createFixtureWorkspace, startPiSession } from '../src/index';

// The generator end to end: the real `nx g` in a fixture workspace with the real nx.json, tsconfig, formatter and
// lint config (every other package links to the real workspace's), then the real lint, typecheck and test targets
// of every generated project, then the real pi-session loading the plugin from a manifest that names it.
const kinds = ['contract', 'session', 'tui', 'coordinator'];
const projects = [
  '@pi/demo-feature',
  '@pi/demo-feature-session',
  '@pi/demo-feature-tui',
  '@pi/demo-feature-coordinator',
];

/** The generated contract's sample service, as a client sees it. */
interface GeneratedContract {
  readonly Greeting: RemoteService<{
    readonly state: RemoteState<{ lastGreeting: string | null; count: number }>;
    greet(request: { name: string }, context: Context): Promise<string>;
  }>;
}

describe('plugin generator output (real nx g, lint, typecheck, test and pi-session)', () => {
  let workspace: FixtureWorkspace;
  let generated: ToolRun;

  beforeAll(async () => {
    workspace = await createFixtureWorkspace('plugin-generator', {
      fromWorkspace: ['nx.json', '.oxfmtrc.json'],
    });
    generated = await workspace.nx([
      'g',
      '@pi/workspace:plugin',
      'demo-feature',
      '--facets=session,tui,coordinator',
      '--skipInstall',
      '--no-interactive',
    ]);
    // What the skipped `npm install` would do: link the new packages into node_modules.
    await workspace.relink();
  });

  afterAll(async () => {
    await workspace?.dispose();
  });

  it('generates the contract and every requested facet', () => {
    expect(generated.code, generated.stderr + generated.stdout).toBe(0);
    for (const kind of kinds) {
      expect(generated.stdout).toContain(`CREATE plugins/demo-feature/${kind}/src/index.ts`);
    }
  });

  it('leaves the TypeScript project references in sync (its callback ran nx sync)', async () => {
    const run = await workspace.nx(['sync:check']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const session = JSON.parse(await workspace.readFile('plugins/demo-feature/session/tsconfig.json'));
    expect(session.references).toEqual([{ path: '../contract' }]);
  });

  it("writes files the workspace's formatter (oxfmt with its .oxfmtrc.json) already accepts", async () => {
    const run = await workspace.oxfmt(['--check', 'plugins']);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('lints, typechecks and tests green in one run', async () => {
    const run = await workspace.nx([
      'run-many',
      '-t',
      'lint',
      'typecheck',
      'test',
      `--projects=${projects.join(',')}`,
      '--outputStyle=static',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toContain('Successfully ran targets lint, typecheck, test for 4 projects');
  }, 300_000);

  it('loads into the real pi-session from a manifest naming it, which then serves its service', async () => {
    const manifest = { plugins: ['@pi/settings', '@pi/providers-builtin', '@pi/demo-feature'] };
    await workspace.writeFile('pi-manifest.json', `${JSON.stringify(manifest)}\n`);
    await using session = await startPiSession(join(workspace.root, 'pi-manifest.json'));
    const contractModule = pathToFileURL(join(workspace.root, 'plugins/demo-feature/contract/src/index.ts')).href;
    const { Greeting } = (await import(contractModule)) as GeneratedContract;

    const client = (
      await connect({ socketPath: session.socketPath, token: session.token, reconnect: false })
    )._unsafeUnwrap();
    try {
      const greeting = await client.use(Greeting);
      expect(greeting.state.value).toEqual({ lastGreeting: null, count: 0 });
      await expect(greeting.greet({ name: 'pi' }, BACKGROUND_CONTEXT)).resolves.toBe('Hello, pi!');
      const state = await nextValue(greeting.state, (value) => value.count === 1);
      expect(state).toEqual({ lastGreeting: 'Hello, pi!', count: 1 });
    } finally {
      client.close();
    }
    const exit = await session.stop();
    expect(exit.code, exit.stderr).toBe(0);
  }, 120_000);

  it('tags the facets so a TUI facet importing its session facet fails lint', async () => {
    const file = 'plugins/demo-feature/tui/src/uses-session.ts';
    const source =
      "import { demoFeatureSessionFacet } from '@pi/demo-feature-session';\n\nexport const wrong = demoFeatureSessionFacet;\n";
    await workspace.writeFile(file, source);
    const graph = await workspace.nx(['show', 'projects']);
    expect(graph.code, graph.stderr).toBe(0);
    const problems = await workspace.lint([file]);
    expect(problems.map((problem) => problem.message)).toContain(
      'A project tagged with "scope:presentation" can only depend on libs tagged with "scope:shared", "scope:presentation"',
    );
  });
});
