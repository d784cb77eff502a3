import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ProjectOutcome } from '../project-batch';

/**
 * Whether every file of the workspace is formatted as oxfmt would (`oxfmt --check` at the workspace root, with
 * `.oxfmtrc.json` and its ignore patterns): one answer for the whole workspace, given to each of these roots.
 */
export function checkFormatting(workspaceRoot: string, roots: readonly string[]): Promise<ProjectOutcome[]> {
  const manifest = createRequire(join(workspaceRoot, 'package.json')).resolve('oxfmt/package.json');
  const cli = join(dirname(manifest), 'bin', 'oxfmt');
  return new Promise((resolve) => {
    const options = { cwd: workspaceRoot, maxBuffer: 64 * 1024 * 1024 };
    execFile(process.execPath, [cli, '--check'], options, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}${error !== null && stdout + stderr === '' ? error.message : ''}`;
      resolve(roots.map((root) => ({ root, success: error === null, output })));
    });
  });
}
