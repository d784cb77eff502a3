/** undici reports "fetch failed" / "terminated" and keeps the useful part (e.g. ECONNREFUSED) in `cause`. */
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
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${thrown.message} (${code})` : `${thrown.message} (${cause.message})`;
  }
  return thrown.message;
}
