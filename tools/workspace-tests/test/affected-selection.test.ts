import { beforeAll, describe, expect, it } from 'vitest';
import { runTool, tools, workspaceRoot } from '../src/index';

// What `npm run affected` would run, proven on the real workspace: Nx's affected selection for a change in one file
// (`--files`, so the test changes nothing on disk), against the projects' tags and the project graph.

async function nx(args: readonly string[]): Promise<string> {
  const run = await runTool(tools.nx, args, workspaceRoot);
  if (run.code !== 0) throw new Error(`nx ${args.join(' ')} failed:\n${run.stderr}${run.stdout}`);
  return run.stdout;
}

const affectedBy = async (file: string) =>
  JSON.parse(await nx(['show', 'projects', '--affected', `--files=${file}`, '--json'])) as string[];

interface ProjectGraph {
  readonly graph: {
    readonly nodes: Record<string, { readonly data: { readonly tags?: readonly string[] } }>;
    readonly dependencies: Record<string, ReadonlyArray<{ readonly target: string }>>;
  };
}

describe('affected-only runs select what a change can break, and nothing of the other tiers', () => {
  let graph: ProjectGraph['graph'];
  const tagged = (tag: string) =>
    Object.entries(graph.nodes)
      .filter(([, node]) => node.data.tags?.includes(tag))
      .map(([name]) => name);
  let presentation: string[];
  let session: string[];
  let coordinator: string[];
  // One graph for the tags and the dependencies; each affected selection is Nx's own.
  beforeAll(async () => {
    graph = (JSON.parse(await nx(['graph', '--file=stdout'])) as ProjectGraph).graph;
    presentation = tagged('scope:presentation');
    session = tagged('scope:session');
    coordinator = tagged('scope:coordinator');
    expect(presentation).toContain('@pi/tui');
    expect(session).toContain('@pi/session');
  });

  it('a change in a session facet selects it and no presentation project', async () => {
    const affected = await affectedBy('plugins/chat/session/src/index.ts');
    expect(affected).toContain('@pi/chat-session');
    expect(affected).toContain('@pi/session');
    expect(affected.filter((project) => presentation.includes(project))).toEqual([]);
    expect(affected.filter((project) => coordinator.includes(project))).toEqual([]);
  });

  it('a change in a TUI facet selects it and no session or coordinator project', async () => {
    const affected = await affectedBy('plugins/chat/tui/src/index.ts');
    expect(affected).toContain('@pi/chat-tui');
    expect(affected).toContain('@pi/tui');
    expect(affected.filter((project) => session.includes(project) || coordinator.includes(project))).toEqual([]);
  });

  it('a change in a shared library selects it and every project that depends on it, in every tier', async () => {
    const affected = await affectedBy('libs/json/src/index.ts');
    const dependents = new Set(['@pi/json']);
    for (let grew = true; grew;) {
      grew = false;
      for (const [project, edges] of Object.entries(graph.dependencies)) {
        if (!dependents.has(project) && edges.some((edge) => dependents.has(edge.target))) {
          dependents.add(project);
          grew = true;
        }
      }
    }
    expect([...affected].sort()).toEqual([...dependents].sort());
    expect(affected).toEqual(expect.arrayContaining(['@pi/tui', '@pi/session', '@pi/coordinator']));
  });
});
