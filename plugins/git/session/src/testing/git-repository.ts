import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The environment tests run git with, in the test and in the facet alike: the machine's global and system
 * configuration are ignored, the identity is fixed, and variables that would point git elsewhere are dropped.
 */
export const GIT_TEST_ENV: Readonly<Record<string, string | undefined>> = Object.freeze(
  Object.fromEntries(
    Object.entries({
      ...process.env,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'pi test',
      GIT_AUTHOR_EMAIL: 'test@pi.invalid',
      GIT_COMMITTER_NAME: 'pi test',
      GIT_COMMITTER_EMAIL: 'test@pi.invalid',
    }).filter(([name]) => !['GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR'].includes(name)),
  ),
);

/** Runs git in `cwd` (never through a shell) and returns its stdout. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run('git', args, { cwd, env: GIT_TEST_ENV });
  return stdout;
}

/** A fresh temporary directory; remove it with `rm(path, { recursive: true, force: true })`. */
export function temporaryDirectory(prefix = 'pi-git-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** `git init` on branch `main` with one commit of README.md. */
export async function initRepository(directory: string): Promise<void> {
  await mkdir(directory, { recursive: true });
  await git(directory, 'init', '--quiet', '--initial-branch=main');
  await writeFile(join(directory, 'README.md'), '# test\n');
  await git(directory, 'add', 'README.md');
  await git(directory, 'commit', '--quiet', '--message', 'first');
}

/** Writes a file, creating its directories. */
export async function writeProjectFile(root: string, path: string, content: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true });
  await writeFile(join(root, path), content);
}

/** Stages everything and commits it, as a user would outside pi. */
export async function commitEverything(directory: string, message: string): Promise<void> {
  await git(directory, 'add', '--all');
  await git(directory, 'commit', '--quiet', '--message', message);
}

export async function removeDirectory(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
}
