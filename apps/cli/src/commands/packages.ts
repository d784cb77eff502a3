import { parseArgs } from 'node:util';
import { piDirectories } from '@pi/connection-files';
import {
  installPackage,
  installedPackages,
  removePackage,
  scopeFilesFor,
  type InstalledPackage,
  type PackageError,
} from '@pi/plugin-packages';
import { EXIT } from '../exit-codes';
import type { Output } from '../output';
import { PACKAGE_OPTIONS, PACKAGES_USAGE, type PackageCommand } from './package-command-line';

/**
 * `pi install | remove | list`: manages the plugin packages of the user's and the project's scope. They act on
 * files only; a running session sees the change when it starts again (or reloads its plugins).
 */
export async function runPackageCommand(
  argv: readonly string[],
  context: { readonly io: Output; readonly env: NodeJS.ProcessEnv; readonly cwd: string },
): Promise<number> {
  const { io, env } = context;
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: PACKAGE_OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    io.err(`pi: ${error instanceof Error ? error.message : String(error)} (see pi install --help)`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  const [command, ...operands] = positionals as [PackageCommand, ...string[]];
  if (values.help === true) {
    io.out(PACKAGES_USAGE);
    return EXIT.ok;
  }
  const wanted = command === 'list' ? 0 : 1;
  if (operands.length !== wanted) {
    const usage = { install: 'pi install <source> [-l]', remove: 'pi remove <name> [-l]', list: 'pi list [-l]' };
    io.err(`pi: ${command} takes ${wanted === 0 ? 'no operand' : 'one operand'}: ${usage[command]}`);
    return EXIT.usage;
  }
  const request = {
    scope: values.local === true ? ('project' as const) : ('global' as const),
    configDir: piDirectories(env, { configDir: values['config-dir'] }).configDir,
    cwd: values.cwd ?? context.cwd,
    env,
  };
  const json = values.json === true;
  switch (command) {
    case 'install': {
      const installed = await installPackage(operands[0] ?? '', request);
      if (installed.isErr()) return failed(io, installed.error, json);
      const { manifest } = scopeFilesFor(request);
      io.out(json ? JSON.stringify(installed.value) : `Installed ${describe(installed.value)}; plugins in ${manifest}`);
      if (!json) io.out('New sessions load it; a running one after /reload.');
      return EXIT.ok;
    }
    case 'remove': {
      const removed = await removePackage(operands[0] ?? '', request);
      if (removed.isErr()) return failed(io, removed.error, json);
      const plugins = removed.value.plugins.length === 0 ? '' : ` and its plugins ${removed.value.plugins.join(', ')}`;
      io.out(json ? JSON.stringify(removed.value) : `Removed ${removed.value.name}${plugins}`);
      return EXIT.ok;
    }
    case 'list': {
      const all = await installedPackages({ configDir: request.configDir, project: request.cwd });
      const shown = values.local === true ? all.filter((installed) => installed.scope === 'project') : all;
      if (json) io.out(JSON.stringify(shown));
      else if (shown.length === 0) io.out('No packages installed');
      else for (const installed of shown) io.out(describe(installed));
      return EXIT.ok;
    }
  }
}

/** `@acme/x@1.2.3 (project): plugins @acme/x; skills, themes`. */
function describe(installed: InstalledPackage): string {
  const resources = (['skills', 'prompts', 'themes'] as const).filter((kind) => installed.resources[kind].length > 0);
  const parts = [
    installed.plugins.length === 0 ? 'no plugins' : `plugins ${installed.plugins.join(', ')}`,
    ...(resources.length === 0 ? [] : [resources.join(', ')]),
  ];
  return `${installed.name}@${installed.version} (${installed.scope}): ${parts.join('; ')}`;
}

function failed(io: Output, error: PackageError, json: boolean): number {
  io.err(json ? JSON.stringify({ error }) : `pi: ${error.code}: ${error.message}`);
  return error.code === 'bad_source' ? EXIT.usage : EXIT.failed;
}
