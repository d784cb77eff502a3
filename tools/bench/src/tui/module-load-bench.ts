import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * How long `node --import tsx` takes to import `entry` (a TypeScript module of an app, with everything it imports
 * statically; plugins loaded later are not in it), measured inside the child. `root` is the workspace, where tsx
 * resolves.
 */
export async function measureImport(root: string, entry: string): Promise<number> {
  const script =
    'const start = performance.now(); await import(process.argv[1]); ' +
    'process.stdout.write(`imported ${performance.now() - start}\\n`); process.exit(0);';
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, entry], {
    cwd: root,
  });
  const match = /imported ([\d.]+)/.exec(stdout);
  if (match === null) throw new Error(`Importing ${entry} printed ${JSON.stringify(stdout)}`);
  return Number(match[1]);
}
