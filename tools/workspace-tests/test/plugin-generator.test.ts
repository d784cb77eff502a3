import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FixtureWorkspace, type ToolRun, createFixtureWorkspace } from '../src/index';

// The generator end to end: the real `nx g` in a fixture workspace holding the real kernel, nx.json, tsconfig
// and ESLint config, then the real lint, typecheck and test targets of every generated project in one run.
const projects = ['contract', 'session', 'tui', 'coordinator'].map((kind) => `@pi/demo-feature-${kind}`);

describe('plugin generator output (real nx g, lint, typecheck and test)', () => {
  let workspace: FixtureWorkspace;
  let generated: ToolRun;

  beforeAll(async () => {
    workspace = await createFixtureWorkspace('plugin-generator', { fromWorkspace: ['nx.json', 'libs/kernel'] });
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
    for (const kind of ['contract', 'session', 'tui', 'coordinator']) {
      expect(generated.stdout).toContain(`CREATE plugins/demo-feature/${kind}/src/index.ts`);
    }
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

  it('tags the facets so a TUI facet importing its session facet fails lint', async () => {
    const file = 'plugins/demo-feature/tui/src/uses-session.ts';
    const source = "import { pluginId } from '@pi/demo-feature-session';\n\nexport const wrong = pluginId;\n";
    await workspace.writeFile(file, source);
    const graph = await workspace.nx(['show', 'projects']);
    expect(graph.code, graph.stderr).toBe(0);
    const problems = await workspace.lint([file]);
    expect(problems.map((problem) => problem.message)).toContain(
      'A project tagged with "scope:presentation" can only depend on libs tagged with "scope:shared", "scope:presentation"',
    );
  });
});
