import type { SessionGrantScope } from '@pi/permissions';

/**
 * "Allow for this session" for bash covers the exact command it was asked for: `ls` allowed must not let the
 * model run `rm -rf ~` unasked. For a file tool it covers the tool (every later write, or every later edit),
 * since a per-file grant would ask again for each file of one change and the user is shown the scope.
 */
export function sessionGrantScope(tool: string): SessionGrantScope {
  return tool === 'bash' ? 'command' : 'tool';
}

/** The key a grant is kept under: the tool, and for a command grant the command exactly as it would run. */
export function grantKey(tool: string, args: unknown): string {
  if (sessionGrantScope(tool) === 'tool') return JSON.stringify([tool]);
  const command =
    typeof args === 'object' && args !== null && typeof (args as { command?: unknown }).command === 'string'
      ? (args as { command: string }).command
      : null;
  // Without a command string the grant is for these exact arguments.
  return JSON.stringify(command === null ? [tool, 'args', args] : [tool, 'command', command]);
}

/**
 * The grants of one session process: kept in memory by the plugin's facet, so they hold across registry rebuilds
 * and end with the process (a restarted session asks again). Nothing is written to the session file.
 */
export class SessionGrants {
  readonly #keys = new Set<string>();

  allows(tool: string, args: unknown): boolean {
    return this.#keys.has(grantKey(tool, args));
  }

  grant(tool: string, args: unknown): void {
    this.#keys.add(grantKey(tool, args));
  }
}
