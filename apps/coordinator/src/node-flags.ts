/**
 * V8 options for the long-lived processes the coordinator runs: itself in the background and every session. A
 * process that allocates steadily (a session streaming answers) has V8 grow its young generation to two 16 MiB
 * semi-spaces and keep them resident; with 1 MiB ones a session held 92 MiB after 50 turns instead of 101–127, at no
 * measurable CPU cost. One V8 worker thread instead of Node's four: fewer threads, fewer malloc arenas holding freed
 * memory (the session 2 MiB less at rest, its CPU while streaming unchanged). The coordinator, idle nearly always,
 * also takes V8's smaller-heap heuristics. Measured and explained in docs/decisions.md ("Memory of the three
 * processes", "Memory at rest").
 */
export const SESSION_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=1', '--v8-pool-size=1'];
export const COORDINATOR_NODE_FLAGS: readonly string[] = [
  '--max-semi-space-size=1',
  '--v8-pool-size=1',
  '--optimize-for-size',
];

/** `--max_semi_space_size=4` names the same V8 option as `--max-semi-space-size=1`. */
const optionName = (flag: string) => (flag.split('=', 1)[0] ?? flag).replaceAll('_', '-');

/**
 * The node arguments for a child: `flags` first, except an option the user already gave, in `given` (the parent's
 * `execArgv`, kept after them) or in `NODE_OPTIONS` (which the child inherits, and which a command-line flag would
 * otherwise override): the user's own value wins.
 */
export function nodeArguments(
  flags: readonly string[],
  given: readonly string[],
  nodeOptions: string | undefined,
): string[] {
  const named = new Set([...given, ...(nodeOptions ?? '').split(/\s+/)].filter(Boolean).map(optionName));
  return [...flags.filter((flag) => !named.has(optionName(flag))), ...given];
}
