import type { IncomingMessage } from 'node:http';
import { TRPCError } from '@trpc/server';
import { parseConnectionParamsFromUnknown } from '@trpc/server/unstable-core-do-not-import';

/** The methods of tRPC's request frames; its connection params frame has the method `connectionParams`. */
const REQUEST_METHODS: ReadonlySet<unknown> = new Set(['query', 'mutation', 'subscription', 'subscription.stop']);

/** Whether the client sends its connection params as its first message (`?connectionParams=1`). */
export function connectionParamsExpected(request: IncomingMessage): boolean {
  return new URL(request.url ?? '/', 'http://localhost').searchParams.get('connectionParams') === '1';
}

/**
 * The connection params of a client's first message, as tRPC's adapter reads them (`{ data }`); a message that is not
 * a JSON object, or whose `data` is not an object of strings, is a `PARSE_ERROR`.
 */
export function connectionParamsOf(text: string | undefined): Record<string, string> | null {
  let message: unknown;
  try {
    if (text === undefined) throw new Error('JSON uses text frames');
    message = JSON.parse(text);
    if (typeof message !== 'object' || message === null || Array.isArray(message))
      throw new Error('Message was not an object');
  } catch (cause) {
    throw new TRPCError({
      code: 'PARSE_ERROR',
      message: 'Malformed TRPCConnectionParamsMessage',
      cause: cause as Error,
    });
  }
  return parseConnectionParamsFromUnknown((message as { data?: unknown }).data) as Record<string, string> | null;
}

/**
 * Whether a first message is a request (or a batch holding one) rather than connection params: a call made before the
 * client said who it is. tRPC's adapter reads it as malformed params; a host refuses it as not authorized.
 */
export function isRequestBeforeParams(text: string | undefined): boolean {
  if (text === undefined) return false;
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return false;
  }
  const items: unknown[] = Array.isArray(message) ? message : [message];
  return items.some(
    (item) => typeof item === 'object' && item !== null && REQUEST_METHODS.has((item as { method?: unknown }).method),
  );
}
