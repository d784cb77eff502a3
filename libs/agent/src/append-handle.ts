/**
 * The file operations the session file's appends make, after opening: the real `FileHandle`, or — through
 * `HarnessOptions.appendHandle` — a test's wrapper of it that fails like a full or failing disk would.
 */
export interface AppendHandle {
  write(buffer: Uint8Array, offset: number, length: number, position: null): Promise<{ bytesWritten: number }>;
  datasync(): Promise<void>;
  truncate(length: number): Promise<void>;
  stat(): Promise<{ size: number }>;
}

/** A write may be partial (for example on a full disk); loop until every byte is written or it throws. */
export async function writeFully(handle: AppendHandle, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, null);
    offset += bytesWritten;
  }
}
