import { RemoteError } from '@pi/remote';

/**
 * The RemoteError a promise rejects with. Fails when it resolves or rejects with anything else, so a test
 * that expects a stable code cannot pass on a TypeError or a tRPC client error.
 */
export async function remoteErrorOf(promise: Promise<unknown>): Promise<RemoteError> {
  let value: unknown;
  try {
    value = await promise;
  } catch (error) {
    if (error instanceof RemoteError) return error;
    throw new Error(`Expected a RemoteError, got ${describe(error)}`, { cause: error });
  }
  throw new Error(`Expected a RemoteError, but the promise resolved with ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
