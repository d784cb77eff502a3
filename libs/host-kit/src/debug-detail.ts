/** How many causes deep a failure's detail goes: a cycle, or a chain a plugin built by mistake, stops there. */
const MAX_CAUSES = 8;

/** Whether `PI_DEBUG` asks for a failure's stack and causes (`1` or `true`). */
export function debugRequested(env: NodeJS.ProcessEnv): boolean {
  return env['PI_DEBUG'] === '1' || env['PI_DEBUG'] === 'true';
}

/**
 * A failure as a host prints it: its one line, and with `PI_DEBUG=1` the stack of what was thrown and of each
 * `cause` under it, indented (a plugin's author needs them; a user needs the line).
 */
export function failureText(message: string, thrown: unknown, env: NodeJS.ProcessEnv): string {
  if (!debugRequested(env) || thrown === undefined) return message;
  return [
    message,
    ...causeChain(thrown).map((detail, depth) => indent(depth === 0 ? detail : `caused by: ${detail}`)),
  ].join('\n');
}

function causeChain(thrown: unknown): string[] {
  const chain: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = thrown;
  while (current !== undefined && !seen.has(current) && chain.length <= MAX_CAUSES) {
    seen.add(current);
    chain.push(describe(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

/** The stack when there is one (it starts with the name and message), else the value as text; never throws. */
function describe(value: unknown): string {
  try {
    if (value instanceof Error) return value.stack ?? `${value.name}: ${value.message}`;
    return `thrown value: ${typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value))}`;
  } catch {
    return 'thrown value: (unprintable)';
  }
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
