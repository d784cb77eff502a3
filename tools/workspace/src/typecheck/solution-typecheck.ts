import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { innermostRoot, type ProjectOutcome } from '../project-batch';

/**
 * The workspace's TypeScript native compiler: TypeScript 7, installed as `typescript-native` beside the TypeScript 5
 * that ESLint and the declaration bundler use through its JavaScript API (which 7 does not have). It checks the whole
 * solution in a third of the time, on every core, and emits the declarations the packer bundles.
 */
export function nativeCompiler(workspaceRoot: string): string {
  const manifest = createRequire(join(workspaceRoot, 'package.json')).resolve('typescript-native/package.json');
  return join(dirname(manifest), 'bin', 'tsc');
}

/** A diagnostic's first line in `--pretty` output: `file:line:column - error TS…`. */
const DIAGNOSTIC = /^(\S.*?):\d+:\d+ - (?:error|warning)\b/;
/** The summary `tsc` ends with when it found errors. */
const SUMMARY = /^Found \d+ errors?\b/;
// The escape sequences of `--pretty` colours; a pattern, not code, so the control character is meant.
// eslint-disable-next-line no-control-regex
const COLOUR = /\u001b\[[0-9;]*m/g;

export interface SolutionCheckOptions {
  /**
   * One thread instead of TypeScript 7's parallel checkers, for a check that shares the cores with other tools (the
   * batch of `npm test`): each of its checkers resolves again the types its files use, so the whole solution cost
   * 58 s of CPU on four checkers and 33 s on one.
   */
  readonly singleThreaded?: boolean;
}

/**
 * Type-checks the projects at these roots (relative to the workspace) as `tsc --build` of their tsconfig.json files
 * does: each after the projects it references, one whose outputs are up to date not again. Each root is answered with
 * the errors in its own files; an error in no given project's file (a stale referenced project, a bad option) fails
 * every one of them, since each may depend on what it broke.
 */
export async function checkSolution(
  workspaceRoot: string,
  roots: readonly string[],
  options: SolutionCheckOptions = {},
): Promise<ProjectOutcome[]> {
  const configs = roots.map((root) => join(workspaceRoot, root, 'tsconfig.json'));
  const run = await compile(workspaceRoot, configs, options);
  const own = new Map<string, string[]>(roots.map((root) => [root, []]));
  const unowned: string[] = [];
  for (const block of diagnosticBlocks(run.output)) {
    const file = relative(workspaceRoot, resolve(workspaceRoot, block.file));
    const root = innermostRoot(roots, file);
    (root === undefined ? unowned : (own.get(root) ?? unowned)).push(block.text);
  }
  const failedWithoutDiagnostics = run.code !== 0 && [...own.values()].every((blocks) => blocks.length === 0);
  if (failedWithoutDiagnostics && unowned.length === 0) unowned.push(run.output);
  return roots.map((root) => {
    const blocks = [...(own.get(root) ?? []), ...unowned];
    return { root, success: blocks.length === 0, output: blocks.join('\n') };
  });
}

/** The compiler's arguments for a `--build` of these tsconfig.json files. */
export function buildArguments(configs: readonly string[], options: SolutionCheckOptions = {}): string[] {
  return ['--build', ...configs, '--pretty', ...(options.singleThreaded === true ? ['--singleThreaded'] : [])];
}

function compile(
  cwd: string,
  configs: readonly string[],
  options: SolutionCheckOptions,
): Promise<{ code: number; output: string }> {
  return new Promise((done) => {
    let compiler: string;
    try {
      compiler = nativeCompiler(cwd);
    } catch (error) {
      done({
        code: 1,
        output: `TypeScript's native compiler (typescript-native) is not installed: ${String(error)}\n`,
      });
      return;
    }
    const args = [compiler, ...buildArguments(configs, options)];
    execFile(process.execPath, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, output: `${stdout}${stderr}${error !== null && stdout + stderr === '' ? error.message : ''}` });
    });
  });
}

/**
 * The diagnostics of `--pretty` output, each with its source file (empty for one of no file, such as an unreadable
 * tsconfig.json) and its lines as printed, colours kept. The summary table at the end is left out.
 */
function diagnosticBlocks(output: string): { file: string; text: string }[] {
  const blocks: { file: string; lines: string[] }[] = [];
  let current: { file: string; lines: string[] } | undefined;
  for (const line of output.split('\n')) {
    const plain = line.replace(COLOUR, '');
    if (SUMMARY.test(plain)) break;
    const start = DIAGNOSTIC.exec(plain);
    if (start !== null || (current === undefined && plain.trim() !== '')) {
      current = { file: start?.[1] ?? '', lines: [] };
      blocks.push(current);
    }
    current?.lines.push(line);
  }
  return blocks.map(({ file, lines }) => ({ file, text: `${lines.join('\n').trimEnd()}\n` }));
}
