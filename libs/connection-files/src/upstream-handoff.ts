import { createReadStream, fstatSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';

/** Session ids and workspace ids as they appear in file names: no separators, at most 64 characters. */
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * What the coordinator hands a session process it starts: where to connect upstream and the per-session credential
 * that authenticates it there. It travels down a pipe on {@link UPSTREAM_HANDOFF_FD}, never on the command line or
 * in the environment (other processes of the user can read those in /proc). One JSON line; the parent then closes.
 */
export const upstreamHandoffSchema = z.strictObject({
  version: z.literal(1),
  socketPath: z.string().min(1),
  credential: z.string().min(1).max(1024),
  sessionId: z.string().regex(IDENTIFIER),
  workspaceId: z.string().regex(IDENTIFIER),
  /** The other replicas' `ws:`/`wss:` URLs: when this coordinator's socket is gone, the session tries them in turn. */
  replicas: z
    .array(z.string().regex(/^wss?:\/\/[^\s]+$/))
    .max(16)
    .optional(),
  /** The CA (PEM) the replicas' certificates chain to, when it is not one the system trusts. */
  ca: z.string().min(1).max(8192).optional(),
});

export type UpstreamHandoff = z.infer<typeof upstreamHandoffSchema>;

/** The file descriptor the handoff arrives on (the first one after stdin, stdout and stderr). */
export const UPSTREAM_HANDOFF_FD = 3;

/** More than any handoff needs; a writer that sends more is not a coordinator. */
export const UPSTREAM_HANDOFF_MAX_BYTES = 16 * 1024;

export const HANDOFF_ERROR_CODES = {
  not_open: 'not_open',
  too_large: 'too_large',
  not_json: 'not_json',
  invalid: 'invalid',
} as const;

export type HandoffErrorCode = keyof typeof HANDOFF_ERROR_CODES;

export interface HandoffError {
  readonly code: HandoffErrorCode;
  readonly message: string;
}

/**
 * Reads the handoff from `fd` until EOF and closes the fd. Only a pipe, a socket or a regular file is read: in a
 * Node process started without that fd, the number is taken by the event loop's own descriptors (epoll, eventfd),
 * which must be neither read nor closed, so anything else is `not_open` like a descriptor that is not open at all.
 */
export async function readUpstreamHandoff(
  fd: number = UPSTREAM_HANDOFF_FD,
): Promise<Result<UpstreamHandoff, HandoffError>> {
  const stream = openHandoffStream(fd);
  if (stream === undefined) {
    return err({ code: 'not_open', message: `File descriptor ${fd} is not an open pipe: no upstream handoff` });
  }
  const text = await readBounded(stream, UPSTREAM_HANDOFF_MAX_BYTES);
  if (text === undefined) {
    return err({
      code: 'too_large',
      message: `The upstream handoff on file descriptor ${fd} is larger than ${UPSTREAM_HANDOFF_MAX_BYTES} bytes`,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err({ code: 'not_json', message: `The upstream handoff on file descriptor ${fd} is not JSON` });
  }
  const parsed = upstreamHandoffSchema.safeParse(json);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)'))].join(', ');
    return err({ code: 'invalid', message: `The upstream handoff on file descriptor ${fd} is not valid (${fields})` });
  }
  return ok(parsed.data);
}

function openHandoffStream(fd: number): Readable | undefined {
  if (!Number.isInteger(fd) || fd < 0) return undefined;
  let stats;
  try {
    stats = fstatSync(fd);
  } catch {
    return undefined; // EBADF: not open
  }
  // A socket pair (what Node's spawn makes for an extra 'pipe') or a FIFO is read without blocking a thread.
  if (stats.isSocket() || stats.isFIFO()) return new Socket({ fd, readable: true, writable: false });
  if (stats.isFile()) return createReadStream('', { fd, autoClose: true });
  return undefined;
}

/** The stream's text, or undefined once it exceeds `limit` bytes; the stream is destroyed either way. */
function readBounded(stream: Readable, limit: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (text: string | undefined) => {
      stream.removeAllListeners('data');
      stream.destroy();
      resolve(text);
    };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(undefined);
      else chunks.push(chunk);
    });
    stream.once('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    // A reset connection or a read error ends the handoff with what arrived; the parse then says what is wrong.
    stream.once('error', () => finish(Buffer.concat(chunks).toString('utf8')));
  });
}
