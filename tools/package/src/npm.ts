import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * The environment without what an enclosing `npm run` sets for its own package, so a nested npm works on the
 * folder it is given (the cache, registry and user config stay).
 */
export function npmEnvironment(): NodeJS.ProcessEnv {
  const scoped = /^(npm_package_|npm_lifecycle_|npm_config_local_prefix$|npm_command$|INIT_CWD$)/;
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !scoped.test(name)));
}

/** Runs npm in `cwd` and returns what it printed; a failure carries npm's own output. */
export async function runNpm(args: readonly string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync('npm', [...args], { cwd, env: npmEnvironment(), maxBuffer: 16 << 20 });
    return stdout;
  } catch (error) {
    const { stderr = '', stdout = '' } = error as { stderr?: string; stdout?: string };
    throw new Error(`npm ${args.join(' ')} failed in ${cwd}:\n${stderr}${stdout}`, { cause: error });
  }
}
