/**
 * What went wrong on the network, in a line: Node's own message with its code when the message does not already
 * say it (`connect ECONNREFUSED 127.0.0.1:8080`, `aborted (ECONNRESET)`, `self-signed certificate
 * (DEPTH_ZERO_SELF_SIGNED_CERT)`). An injected fetch (undici) reports "fetch failed" / "terminated" and keeps the
 * useful part in `cause`, read the same way.
 */
export function networkCause(thrown: unknown): string {
  if (!(thrown instanceof Error)) {
    try {
      return String(thrown);
    } catch {
      return 'unprintable thrown value';
    }
  }
  const cause = thrown.cause;
  if (cause instanceof Error) {
    const code = codeOf(cause);
    return code === undefined ? `${thrown.message} (${cause.message})` : `${thrown.message} (${code})`;
  }
  const code = codeOf(thrown);
  return code === undefined || thrown.message.includes(code) ? thrown.message : `${thrown.message} (${code})`;
}

function codeOf(error: Error): string | undefined {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}
