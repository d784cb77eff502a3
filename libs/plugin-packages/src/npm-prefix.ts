import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import type { PackageError } from './package-error';

/** The dependencies an npm prefix folder records: package name → the spec it was installed from. */
export async function prefixDependencies(prefix: string): Promise<Record<string, string>> {
  try {
    const json = JSON.parse(await readFile(join(prefix, 'package.json'), 'utf8')) as { dependencies?: unknown };
    const dependencies = json.dependencies;
    return typeof dependencies === 'object' && dependencies !== null ? (dependencies as Record<string, string>) : {};
  } catch {
    return {};
  }
}

/** Makes `prefix` an npm project of its own (a private package.json), so npm installs there and nowhere above. */
export async function ensurePrefix(prefix: string): Promise<void> {
  await mkdir(prefix, { recursive: true });
  const file = join(prefix, 'package.json');
  try {
    await readFile(file, 'utf8');
  } catch {
    await writeFile(file, `${JSON.stringify({ name: 'pi-packages', private: true, dependencies: {} }, null, 2)}\n`);
  }
}

/**
 * Runs `npm <args>` with `prefix` as its project (no audit, no funding notice, no lifecycle scripts of the
 * packages: installing a plugin must not run its code). A failure carries npm's last lines of output.
 */
export function runNpm(
  prefix: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<Result<void, PackageError>> {
  const command = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const child = spawn(
    command,
    [...args, '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', '--no-update-notifier'],
    { cwd: prefix, env: withoutWorkspaceSettings(env), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.on('error', (error) =>
      resolve(err({ code: 'npm_failed', message: `Cannot run npm (${error.message}); pi install needs npm on PATH` })),
    );
    child.on('close', (code) => {
      if (code === 0) return resolve(ok(undefined));
      const tail = output.trim().split('\n').slice(-4).join(' | ');
      resolve(err({ code: 'npm_failed', message: `npm ${args.join(' ')} failed (exit ${code}): ${tail}` }));
    });
  });
}

/** An npm run that started pi (npm test, npm start) passes its own project's settings on; they are not the prefix's. */
function withoutWorkspaceSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const scoped = [
    'npm_config_prefix',
    'npm_config_workspace',
    'npm_config_workspaces',
    'npm_config_global',
    'npm_config_location',
  ];
  return Object.fromEntries(Object.entries(env).filter(([key]) => !scoped.includes(key.toLowerCase())));
}
