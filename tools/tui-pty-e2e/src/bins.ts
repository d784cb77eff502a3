import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);

/** An app's bin script, found through its package (a dependency of this project), as npm would link it. */
function binOf(packageName: string, script: string): string {
  return join(dirname(require.resolve(`${packageName}/package.json`)), 'bin', script);
}

export const PI_SESSION_BIN = binOf('@pi/session', 'pi-session.mjs');
export const PI_TUI_BIN = binOf('@pi/tui', 'pi-tui.mjs');
export const PI_COORDINATOR_BIN = binOf('@pi/coordinator', 'pi-coordinator.mjs');

/** The workspace root, where `npm start` is defined: the nearest folder above whose package.json has workspaces. */
export const WORKSPACE_ROOT = findWorkspaceRoot(dirname(fileURLToPath(import.meta.url)));

function findWorkspaceRoot(from: string): string {
  for (let folder = from; dirname(folder) !== folder; folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest) && 'workspaces' in (JSON.parse(readFileSync(manifest, 'utf8')) as object)) return folder;
  }
  throw new Error(`No workspace root above ${from}`);
}
