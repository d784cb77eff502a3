import { err, ok, type Result } from 'neverthrow';

export interface ProfileOptions {
  /** Only these projects (Nx names); all when empty. */
  readonly projects: readonly string[];
  /** How many of the slowest test files to list. */
  readonly top: number;
  /** Where the raw profiles and logs go. */
  readonly out: string;
}

export const PROFILE_USAGE = `Usage: npm run test:profile -- [--projects a,b] [--top N] [--out DIR]

Runs lint, typecheck and test with the Nx cache off, as npm test does, and prints where the time went:
per project and target (Nx task times), and the slowest test files (import, hooks and tests). A whole run that
passes also rewrites tools/workspace/test-durations.json, which orders later runs longest file first.`;

/** Parses the flags; an unknown flag or a bad value is an error naming it. */
export function parseProfileOptions(argv: readonly string[], defaultOut: string): Result<ProfileOptions, string> {
  let projects: string[] = [];
  let top = 25;
  let out = defaultOut;
  for (let index = 0; index < argv.length; index++) {
    const flag = argv[index];
    const value = argv[index + 1];
    if (flag === '--help' || flag === '-h') return err(PROFILE_USAGE);
    if (flag !== '--projects' && flag !== '--top' && flag !== '--out')
      return err(`Unknown option ${flag}\n${PROFILE_USAGE}`);
    if (value === undefined || value.startsWith('--')) return err(`${flag} needs a value`);
    index += 1;
    if (flag === '--projects') projects = value.split(',').filter(Boolean);
    if (flag === '--out') out = value;
    if (flag === '--top') {
      top = Number(value);
      if (!Number.isInteger(top) || top < 1)
        return err(`--top takes a whole number of files, not ${JSON.stringify(value)}`);
    }
  }
  return ok({ projects, top, out });
}
