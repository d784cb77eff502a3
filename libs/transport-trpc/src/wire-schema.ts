import { z } from 'zod';

/**
 * The tRPC inputs of pi's procedures. They check envelope shape only; business values inside `a`, `response`
 * and so on are checked by the remote layer against the service contract.
 */
const carrier = z
  .object({ traceparent: z.string().max(128).optional(), tracestate: z.string().max(512).optional() })
  .strip();
const callId = z.string().min(1).max(64);
const refId = z.string().min(1).max(128);

/** `$rpc.invoke`: `a` the JSON arguments, `c` the caller's id for cancelling, `t` the W3C trace carrier, for method `m` of reference `r`. */
export const referenceCallInput = z.object({
  a: z.array(z.unknown()).max(64),
  c: callId,
  t: carrier,
  r: refId,
  m: z.string().min(1).max(128),
});

export const referenceInput = z.object({ r: refId });
export const cancelInput = z.object({ c: callId });
export const interactionsInput = z.object({ ids: z.array(z.string().max(64)).max(256) });
export const replyInput = z.union([
  z.object({ requestId: z.string().max(64), response: z.unknown() }),
  z.object({
    requestId: z.string().max(64),
    error: z.object({ code: z.string().max(64), message: z.string().max(4096), data: z.unknown().optional() }),
  }),
]);
