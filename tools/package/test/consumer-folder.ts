import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { nativeCompiler } from '@pi/workspace';
import { runNpm } from '../src/npm';
import { WORKSPACE_ROOT } from '../src/workspace-root';

const execFileAsync = promisify(execFile);

/**
 * An empty project outside the workspace, as a user of the packages has: its own package.json, packages
 * installed by npm, plain `node` and `tsc`. Nothing in or above it resolves to this repository.
 */
export interface ConsumerFolder extends AsyncDisposable {
  readonly dir: string;
  /** `npm install` of tarballs or `name@version` specs (from the npm cache when it holds them). */
  install(specs: readonly string[]): Promise<void>;
  writeFile(name: string, text: string): Promise<void>;
  /**
   * Runs `node <file>` (a path in the folder) with `env` added, from the folder or from `cwd`, and
   * returns its standard output.
   */
  node(file: string, env?: Readonly<Record<string, string>>, cwd?: string): Promise<string>;
  /**
   * Compiles the folder's tsconfig.json with its own `tsc` (TypeScript 5, as most users have, libraries' declarations
   * skipped as `tsc --init` sets), emitting into dist/, and checks it again with TypeScript 7 with every declaration
   * file checked, the packed ones included: a type error in either fails it.
   */
  compile(): Promise<void>;
  /** Compiles another project in the folder (`tsc -p <project>`) with the folder's TypeScript, emitting as it says. */
  compileProject(project: string): Promise<void>;
}

export async function createConsumerFolder(): Promise<ConsumerFolder> {
  const dir = await mkdtemp(join(tmpdir(), 'pi-consumer-'));
  const write = (name: string, text: string) => writeFile(join(dir, name), text);
  await write('package.json', JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const run = async (command: string, args: readonly string[], env: Record<string, string> = {}, cwd = dir) => {
    try {
      const options = { cwd, timeout: 120_000, env: { ...process.env, ...env } };
      return (await execFileAsync(command, [...args], options)).stdout;
    } catch (error) {
      const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
      throw new Error(`${command} ${args.join(' ')} failed:\n${stdout}${stderr}`, { cause: error });
    }
  };
  return {
    dir,
    async install(specs) {
      await runNpm(['install', '--prefer-offline', '--no-audit', '--no-fund', '--save-exact', ...specs], dir);
    },
    writeFile: write,
    node: (file, env = {}, cwd = dir) => run(process.execPath, [join(dir, file)], env, cwd),
    async compile() {
      // Two processes on two cores: the check does not read what the emit writes. TypeScript 7 on one thread: its
      // parallel checkers each resolve the types again (2.9 s of CPU against 2.1 s here).
      await Promise.all([
        run(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '--skipLibCheck']),
        run(process.execPath, [
          nativeCompiler(WORKSPACE_ROOT),
          '--noEmit',
          '--skipLibCheck',
          'false',
          '--singleThreaded',
        ]),
      ]);
    },
    async compileProject(project) {
      await run(process.execPath, [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project]);
    },
    [Symbol.asyncDispose]: () => rm(dir, { recursive: true, force: true }),
  };
}
