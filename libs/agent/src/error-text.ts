/** The `code` of a Node system error (ENOENT, EEXIST, ...), if the thrown value has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** A thrown value as a one-line message for an entry or a tool result; never throws itself. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return 'unprintable thrown value';
  }
}
