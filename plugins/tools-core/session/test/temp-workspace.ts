import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { onTestFinished } from 'vitest';
import { BACKGROUND_CONTEXT, type AgentTool, type AgentToolResult, type Context, type JsonValue } from '@pi/plugin-api';

// Registered per test: with isolate off a worker imports this module once for many test files, so a hook
// registered at import would run for the first file only.

/** A temporary session working directory (`cwd`) with a sibling directory outside it (`outside`). */
export interface TempWorkspace {
  readonly cwd: string;
  readonly outside: string;
  /** Writes files under cwd (paths relative to it), creating directories. */
  files(files: Record<string, string | Uint8Array>): Promise<void>;
  text(path: string): Promise<string>;
}

export async function tempWorkspace(): Promise<TempWorkspace> {
  const base = await realpath(await mkdtemp(join(tmpdir(), 'pi-tools-core-')));
  onTestFinished(() => rm(base, { recursive: true, force: true }));
  const cwd = join(base, 'project');
  const outside = join(base, 'outside');
  await mkdir(cwd);
  await mkdir(outside);
  await writeFile(join(outside, 'secret.txt'), 'outside secret\n');
  return {
    cwd,
    outside,
    async files(files) {
      for (const [path, content] of Object.entries(files)) {
        await mkdir(dirname(join(cwd, path)), { recursive: true });
        await writeFile(join(cwd, path), content);
      }
    },
    text: (path) => readFile(join(cwd, path), 'utf8'),
  };
}

/** Runs a tool as the harness does: the arguments through its schema first. */
export async function run<Args, Details extends JsonValue>(
  tool: AgentTool<Args, Details>,
  args: unknown,
  context: Context = BACKGROUND_CONTEXT,
): Promise<AgentToolResult<Details> & { text: string }> {
  const result = await tool.execute(tool.parameters.parse(args), context);
  return { ...result, text: result.content.map((part) => part.text).join('') };
}

/** A tool's preflight as a wrapper calls it, on arguments that passed its schema; a tool without one throws. */
export async function preflight<Args, Details extends JsonValue>(
  tool: AgentTool<Args, Details>,
  args: unknown,
): Promise<AgentToolResult<Details> | null> {
  if (tool.preflight === undefined) throw new Error(`${tool.name} has no preflight`);
  return tool.preflight(tool.parameters.parse(args), BACKGROUND_CONTEXT);
}
