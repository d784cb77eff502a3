import { REMOTE_ERROR_CODES } from '@pi/remote';
import { FIXTURE_TOKEN, wireViolations } from '@pi/test-support';

/** The codes docs/protocol.md lists; the fixture services used by the fuzz suites declare none of their own. */
export const DOCUMENTED_CODES: ReadonlySet<string> = new Set(Object.values(REMOTE_ERROR_CODES));

export const connectionParamsFrame = (token: string = FIXTURE_TOKEN) =>
  JSON.stringify({ method: 'connectionParams', data: { token } });

/** A well-formed service call frame, as pi's own client would send it. */
export function callFrame(id: number | string, path: string, args: readonly unknown[], callId = `c-${id}`): string {
  return JSON.stringify({ id, method: 'mutation', params: { path, input: { json: { a: args, c: callId, t: {} } } } });
}

/** The same call as pi's own client sends it to a host of protocol 1.2 or later: a compact call. */
export function compactCallFrame(id: number, path: string, args: readonly unknown[], callId = `c-${id}`): string {
  return JSON.stringify([id, path, args, callId]);
}

/** What the server sent, sorted: replies by id, the error codes among them, and frames that fit no reply shape. */
export interface ServerFrames {
  readonly repliesById: ReadonlyMap<string, number>;
  readonly errorCodes: readonly string[];
  readonly unexpected: readonly string[];
}

/**
 * Sorts server frames by the shapes of docs/protocol.md: `PONG`, `{ id, result: { type } }`, and
 * `{ id, error: { json: { code, message, data: { remote: { code, message } } } } }` (superjson-wrapped); and the
 * replies to compact calls, `[id, 0, value?]`, `[id, 1, ref]` and `[id, 2, { code, message }]`.
 */
export function sortServerFrames(frames: readonly string[]): ServerFrames {
  const repliesById = new Map<string, number>();
  const errorCodes: string[] = [];
  const unexpected: string[] = [];
  for (const frame of frames) {
    if (frame === 'PONG') continue;
    const parsed = parse(frame);
    if (isCompactCall(parsed)) {
      const [id, kind, payload] = parsed;
      const key = JSON.stringify(id);
      const error = kind === 2 ? remoteEnvelope(payload) : undefined;
      if ((kind === 0 && parsed.length <= 3) || (kind === 1 && typeof payload === 'string' && parsed.length === 3))
        repliesById.set(key, (repliesById.get(key) ?? 0) + 1);
      else if (error !== undefined && parsed.length === 3) {
        repliesById.set(key, (repliesById.get(key) ?? 0) + 1);
        errorCodes.push(error.code);
      } else unexpected.push(frame);
      continue;
    }
    if (!isRecord(parsed) || !('id' in parsed)) {
      unexpected.push(frame);
      continue;
    }
    const id = JSON.stringify(parsed['id']);
    if (isRecord(parsed['result']) && ['data', 'started', 'stopped'].includes(String(parsed['result']['type']))) {
      if (parsed['result']['type'] !== 'stopped') repliesById.set(id, (repliesById.get(id) ?? 0) + 1);
      continue;
    }
    const remote = remoteEnvelopeOf(parsed['error']);
    if (remote === undefined) {
      unexpected.push(frame);
      continue;
    }
    repliesById.set(id, (repliesById.get(id) ?? 0) + 1);
    errorCodes.push(remote.code);
  }
  return { repliesById, errorCodes, unexpected };
}

/** Codes a malformed or forged request may never get: undocumented ones, and `internal` (an input problem is not a server fault). */
export function wrongCodesFor(codes: readonly string[]): string[] {
  return codes.filter((code) => !DOCUMENTED_CODES.has(code) || code === 'internal');
}

/**
 * The wire scan over what the server sent, except what the client wrote itself: the results of `probe.echo` calls
 * (which repeat the client's value, filled with context-shaped keys on purpose) and the ids replies carry.
 */
export function serverFrameViolations(sent: readonly string[], received: readonly string[]): string[] {
  const echoIds = new Set<string>();
  const sentIds = new Set<string>();
  for (const frame of sent) {
    const parsed = parse(frame);
    if (isCompactCall(parsed)) {
      sentIds.add(JSON.stringify(parsed[0]));
      if (parsed[1] === 'probe.echo') echoIds.add(JSON.stringify(parsed[0]));
      continue;
    }
    for (const request of Array.isArray(parsed) ? parsed : [parsed]) {
      if (!isRecord(request)) continue;
      sentIds.add(JSON.stringify(request['id']));
      if (isRecord(request['params']) && request['params']['path'] === 'probe.echo')
        echoIds.add(JSON.stringify(request['id']));
    }
  }
  const scanned = received.flatMap((frame) => {
    const parsed = parse(frame);
    if (isCompactCall(parsed)) {
      const id = JSON.stringify(parsed[0]);
      if (parsed[1] === 0 && echoIds.has(id)) return [];
      return sentIds.has(id) ? [JSON.stringify([0, ...parsed.slice(1)])] : [frame];
    }
    if (!isRecord(parsed)) return [frame];
    if ('result' in parsed && echoIds.has(JSON.stringify(parsed['id']))) return [];
    // A reply carries the id its request chose (`"=>"` is a valid one): that text is the client's, not the server's.
    return sentIds.has(JSON.stringify(parsed['id'])) ? [JSON.stringify({ ...parsed, id: 0 })] : [frame];
  });
  return wireViolations(scanned);
}

function remoteEnvelopeOf(error: unknown): { code: string; message: string } | undefined {
  const shape = isRecord(error) ? error['json'] : undefined;
  if (!isRecord(shape) || typeof shape['code'] !== 'number' || typeof shape['message'] !== 'string') return undefined;
  return remoteEnvelope(isRecord(shape['data']) ? shape['data']['remote'] : undefined);
}

function remoteEnvelope(remote: unknown): { code: string; message: string } | undefined {
  if (!isRecord(remote) || typeof remote['code'] !== 'string' || typeof remote['message'] !== 'string')
    return undefined;
  return { code: remote['code'], message: remote['message'] };
}

/** A compact call or its reply: an array that starts with a number (docs/protocol.md). */
function isCompactCall(value: unknown): value is unknown[] {
  return Array.isArray(value) && typeof value[0] === 'number';
}

function parse(frame: string): unknown {
  try {
    return JSON.parse(frame);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
