import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { err, ok, type Result } from 'neverthrow';
import type { HostName } from '@pi/plugin-api';
import { errorText } from './plugin-load-error';
import { javaScriptOf } from './typescript-source';

/**
 * Refuses a facet module that several hosts import (each into its own process, so each has its own copy of its
 * module scope) when it has module-level mutable bindings: what one host writes there the others never see, which
 * silently breaks a plugin whose facets meant to share it. The module is parsed, never run; the message names the
 * file and the line of each binding. Modules that one host imports are never checked.
 */
export async function checkSharedModule(url: string, hosts: readonly HostName[]): Promise<Result<void, string>> {
  const file = fileURLToPath(url);
  const served = `its module ${file} is the ${hosts.join(' and ')} facet, and each host imports its own copy`;
  let source: string;
  try {
    source = javaScriptOf(file, await readFile(file, 'utf8'));
  } catch (thrown) {
    return err(`${served}; it cannot be checked for module-level state: ${errorText(thrown)}`);
  }
  // The parser is loaded only for the rare module that needs it, so a host's start does not pay for it.
  const { findMutableBindings } = await import('./module-bindings');
  let found;
  try {
    found = findMutableBindings(source);
  } catch (thrown) {
    return err(`${served}; it cannot be parsed to check it for module-level state: ${errorText(thrown)}`);
  }
  if (found.length === 0) return ok(undefined);
  const listed = found
    .slice(0, 3)
    .map((binding) => `${file}:${binding.line}:${binding.column}: "${binding.name}" (${binding.kind})`)
    .join('; ');
  const more = found.length > 3 ? ` and ${found.length - 3} more` : '';
  return err(
    `refused: ${served}, so module-level mutable state would not be shared between them — ${listed}${more}. ` +
      'Keep shared state in a service the session facet provides, or give each host a module of its own.',
  );
}
