import { open } from 'node:fs/promises';
import { TOOL_LIMITS } from './tool-limits';

/**
 * Git's test for a binary file: a NUL byte among the first 8000 bytes. Text in UTF-8, Latin-1 and the like never
 * has one; images, archives, executables and UTF-16 text almost always do.
 */
export function looksBinary(head: Uint8Array): boolean {
  return head.subarray(0, TOOL_LIMITS.binarySniffBytes).includes(0);
}

/** Reads the first bytes of a file and applies `looksBinary`. */
export async function fileLooksBinary(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(TOOL_LIMITS.binarySniffBytes);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return looksBinary(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
