import type { TraceCarrier } from '@pi/context';
import { RemoteError } from '@pi/remote';

export interface ServiceCallEnvelope {
  readonly a: readonly unknown[];
  readonly c: string;
  readonly t: TraceCarrier;
}

const MAX_ARGUMENTS = 64;
const MAX_CALL_ID = 64;

/**
 * The `{ a, c, t }` envelope of a service call, checked by a plain function: this is the hot path, and a zod
 * object parse per call costs more than the check is worth. The carrier is checked where it is read (extractTelemetryContext), and the
 * arguments by the endpoint against the contract.
 */
export function readServiceCall(raw: unknown): ServiceCallEnvelope {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw malformed();
  const { a, c, t } = raw as Record<string, unknown>;
  if (!Array.isArray(a) || a.length > MAX_ARGUMENTS) throw malformed();
  if (typeof c !== 'string' || c.length === 0 || c.length > MAX_CALL_ID) throw malformed();
  // Checked, the input is the envelope itself (a compact call's input is one made for it): no copy per call.
  if (typeof t === 'object' && t !== null) return raw as ServiceCallEnvelope;
  return { a, c, t: NO_TRACE };
}

const NO_TRACE: TraceCarrier = Object.freeze({});

function malformed(): RemoteError {
  return new RemoteError('invalid_argument', 'Malformed request');
}
