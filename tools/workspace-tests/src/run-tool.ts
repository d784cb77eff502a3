import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { workspaceRoot } from './workspace-root';

export interface ToolRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The entry script of an installed package's command, read from its package.json `bin`. */
function binScript(packageName: string, command: string): string {
  const packageDir = join(workspaceRoot, 'node_modules', packageName);
  const { bin } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf-8')) as {
    bin: string | Record<string, string>;
  };
  // A package with one command may name its script directly.
  const script = typeof bin === 'string' ? bin : bin[command];
  if (!script) throw new Error(`${packageName} has no "${command}" command`);
  return join(packageDir, script);
}

/** The entry scripts of the workspace's own tools, run with the current node. */
export const tools = {
  nx: binScript('nx', 'nx'),
  oxlint: binScript('oxlint', 'oxlint'),
  oxfmt: binScript('oxfmt', 'oxfmt'),
} as const;

/**
 * An environment for a tool run inside a fixture workspace: no Nx daemon, no cloud, no colours, and none of the
 * NX_* or VITEST* variables of the enclosing run (NX_WORKSPACE_ROOT_PATH would point Nx at the real workspace).
 */
export function fixtureEnvironment(): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([key]) => !/^(NX_|VITEST|NODE_OPTIONS$)/.test(key));
  return {
    ...Object.fromEntries(inherited),
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
    NX_TUI: 'false',
    NX_SKIP_NX_CACHE: 'true',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
  };
}

/** Runs `node <script> ...args` in `cwd` and resolves with its exit code and output; never rejects on exit code. */
export function runTool(script: string, args: readonly string[], cwd: string): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd, env: fixtureEnvironment(), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}
