import type { PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { RemoteError, type JsonValue } from '@pi/remote';
import { EXIT } from '../exit-codes';
import { reportError, type Output } from '../output';

/** `pi call <service>.<method> [json args...]`: one call; its result as JSON on stdout. Failures reject. */
export async function callCommand(
  client: PiClient,
  operands: readonly string[],
  json: boolean,
  io: Output,
  interrupted: AbortSignal,
): Promise<number> {
  const [target = '', ...texts] = operands;
  const dot = target.indexOf('.');
  if (dot <= 0 || dot === target.length - 1) {
    io.err(`pi: call needs <service>.<method>, got "${target}" (see pi call --help)`);
    return EXIT.usage;
  }
  const args: JsonValue[] = [];
  for (const [index, text] of texts.entries()) {
    const parsed = parseJson(text);
    if (parsed === undefined) {
      const hint = `argument ${index + 1} is not JSON: ${text.length > 80 ? `${text.slice(0, 80)}…` : text} (quote strings: '"text"')`;
      return reportError(io, new RemoteError('invalid_argument', hint, { argument: index + 1 }), json);
    }
    args.push(parsed);
  }
  const context = withAbortSignal(interrupted, BACKGROUND_CONTEXT);
  const response = await client.call(target.slice(0, dot), target.slice(dot + 1), args, context);
  if (json) io.out(JSON.stringify(response));
  else if (response.ref !== undefined) io.out(JSON.stringify({ ref: response.ref }));
  else if ('value' in response) io.out(JSON.stringify(response.value, null, 2));
  if (response.ref !== undefined) io.err('pi: the result is a remote reference; it is released when pi exits');
  return EXIT.ok;
}

function parseJson(text: string): JsonValue | undefined {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}
