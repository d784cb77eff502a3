import { parseArgs } from 'node:util';

/** What `pi` needs to recognise a package command without loading the package machinery (`packages.ts`). */
export const PACKAGE_COMMANDS = ['install', 'remove', 'list'] as const;
export type PackageCommand = (typeof PACKAGE_COMMANDS)[number];

export const PACKAGES_USAGE = `Packages (plugins, skills, prompt templates and themes; no session needed):
  pi install <source> [-l]   install a pi package and add its plugins to the global plugins
                             (<config dir>/plugins.json), or with -l the project's (.pi/plugins.json);
                             <source>: an npm name (name, npm:name@version), a path (a folder or a
                             packed .tgz), or a git URL (git:github.com/owner/repo@ref, git+https://…)
  pi remove <name> [-l]      uninstall it and take its plugins out of that manifest
  pi list [-l]               the packages installed globally and in this project (-l: the project's)
  --cwd DIR                  the project (default: the current directory)
  --config-dir DIR           the user's config dir (default: $XDG_CONFIG_HOME/pi, or ~/.config/pi)
  --json                     machine output: JSON only`;

export const PACKAGE_OPTIONS = {
  local: { type: 'boolean', short: 'l' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  cwd: { type: 'string' },
  'config-dir': { type: 'string' },
} as const;

/** The other commands' flags that take a value, so that a value (`pi -p list`) is never read as a command. */
const OTHER_VALUE_FLAGS = Object.fromEntries(
  ['session', 'socket', 'url', 'data-dir', 'title', 'model', 'mode'].map((flag) => [flag, { type: 'string' }]),
) as Record<string, { type: 'string' }>;

/** Whether the line names a package command (`pi install …`, `pi remove …`, `pi list …`). */
export function isPackageCommand(argv: readonly string[]): boolean {
  const options = { ...PACKAGE_OPTIONS, ...OTHER_VALUE_FLAGS, print: { type: 'string', short: 'p' } } as const;
  const { positionals } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true });
  return (PACKAGE_COMMANDS as readonly string[]).includes(positionals[0] ?? '');
}
