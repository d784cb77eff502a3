import { access } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The pi programs one pi program may start. */
export type PiProgram = 'pi-session' | 'pi-coordinator';

const BUNDLE_FOLDERS: Record<PiProgram, string> = { 'pi-session': 'session', 'pi-coordinator': 'coordinator' };

/**
 * Finds another pi program: beside the caller when both run from their bundles (dist/apps/<app>/), else like any
 * installed program, `node_modules/.bin` from the caller upward, then $PATH. `from` is the caller's
 * `import.meta.url`.
 */
export async function findPiProgram(
  program: PiProgram,
  from: string,
  env: NodeJS.ProcessEnv,
): Promise<string | undefined> {
  const here = dirname(fileURLToPath(from));
  const candidates: string[] = [join(here, '..', BUNDLE_FOLDERS[program], `${program}.mjs`)];
  for (let folder = here; ; folder = dirname(folder)) {
    candidates.push(join(folder, 'node_modules', '.bin', program));
    if (dirname(folder) === folder) break;
  }
  for (const folder of (env['PATH'] ?? '').split(':').filter(Boolean)) candidates.push(join(folder, program));
  for (const candidate of candidates) {
    const found = await access(candidate).then(
      () => true,
      () => false,
    );
    if (found) return candidate;
  }
  return undefined;
}
