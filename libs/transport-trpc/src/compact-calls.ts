import type { TraceCarrier } from '@pi/context';
import { RemoteError, isRemoteErrorEnvelope, type CallResponse, type RemoteErrorEnvelope } from '@pi/remote';

/**
 * pi's compact calls: a service call and its reply as positional JSON arrays, beside tRPC's envelopes, for pi's own
 * client on a host that speaks protocol 1.2 or later (`speaksCompactCalls`). A call in tRPC's form is 7 objects to
 * decode on the host (`{id, method, params: {path, input: {json: {a: [value], c, t}}}}`) and its reply 6 on the
 * client; here it is 2 and 1 besides the value, with the same fields:
 *
 *   request  `[id, "<service>.<method>", args, callId]`, or `[id, path, args, callId, trace]` when there is a trace
 *   reply    `[id, 0]` void, `[id, 0, value]`, `[id, 1, refId]` a remote result, `[id, 2, { code, message, data? }]`
 *
 * The host reads the request into the same `{ a, c, t }` input the tRPC frame carries and runs the same procedure
 * with the same checks; only the envelopes differ. A tRPC message is always a JSON object (or a batch: an array of
 * objects), so an array whose first element is a number is a compact call and nothing else.
 */

/** The carrier of an untraced call (most calls), shared: nothing reads a carrier but to copy its fields out. */
const NO_TRACE: TraceCarrier = Object.freeze({});

/** The kinds of reply, its second element. */
const REPLY = { value: 0, reference: 1, error: 2 } as const;

/** A compact call as the host reads it: the request id, the procedure's path and its input, checked by the procedure. */
export class CompactCall {
  readonly id: number;
  readonly path: string;
  readonly input: { readonly a: unknown; readonly c: unknown; readonly t: unknown };

  constructor(id: number, path: string, input: CompactCall['input']) {
    this.id = id;
    this.path = path;
    this.input = input;
  }
}

/** Whether a decoded message is a compact call (an array that starts with a number), to be read by `readCompactCall`. */
export function isCompactCall(decoded: unknown): decoded is unknown[] {
  return Array.isArray(decoded) && typeof decoded[0] === 'number';
}

/**
 * The request, or the reply that refuses it when it is malformed (its id is still the client's to match). An id
 * that is not a safe integer has no answer: a tRPC client's ids are integers too.
 */
export function readCompactCall(decoded: readonly unknown[]): CompactCall | { readonly refusal: string } | undefined {
  const [id, path, a, c, t] = decoded;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return undefined;
  if (typeof path !== 'string' || decoded.length < 4 || decoded.length > 5)
    return { refusal: compactErrorText(id, { code: 'invalid_argument', message: 'Malformed request' }) };
  return new CompactCall(id, path, { a, c, t: t ?? NO_TRACE });
}

/**
 * A request's text (the arguments passed the strict-JSON guard). One `JSON.stringify` of the whole frame: a template
 * around each part's text built the parts, then joined them (~250 bytes more per call for the bench's payload).
 */
export function compactCallText(
  id: number,
  path: string,
  args: readonly unknown[],
  callId: string,
  trace: TraceCarrier,
) {
  return JSON.stringify(hasFields(trace) ? [id, path, args, callId, trace] : [id, path, args, callId]);
}

/** The reply to a call that settled with `response` (the endpoint's, already checked against the contract). */
export function compactReplyText(id: number, response: CallResponse): string {
  if (response.ref !== undefined) return JSON.stringify([id, REPLY.reference, response.ref]);
  return JSON.stringify(response.value === undefined ? [id, REPLY.value] : [id, REPLY.value, response.value]);
}

/** The reply to a call that failed: the envelope a tRPC error frame carries in `data.remote`. */
export function compactErrorText(id: number, envelope: RemoteErrorEnvelope): string {
  return `[${id},${REPLY.error},${JSON.stringify(envelope)}]`;
}

/**
 * A reply as the client's call sees it: the response, or the RemoteError the service threw. A reply that is none of
 * the three kinds is a broken host, not a result: `internal`.
 */
export function compactOutcome(reply: readonly unknown[]): CallResponse | RemoteError {
  const [, kind, payload] = reply;
  if (kind === REPLY.value && reply.length <= 3)
    return reply.length === 2 ? {} : { value: payload as CallResponse['value'] };
  if (kind === REPLY.reference && typeof payload === 'string') return { ref: payload };
  if (kind === REPLY.error && isRemoteErrorEnvelope(payload)) return RemoteError.fromEnvelope(payload);
  return new RemoteError('internal', 'Unexpected transport error');
}

function hasFields(trace: TraceCarrier): boolean {
  for (const key in trace) if (Object.hasOwn(trace, key)) return true;
  return false;
}
