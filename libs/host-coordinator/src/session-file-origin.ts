import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { sessionHeaderSchema } from '@pi/agent-contract';
import { workspaceIdOf } from '@pi/connection-files';
import type { SessionFileOrigin } from '@pi/plugin-api';

/** A header is one short JSON line; a first line longer than this is not a session file's. */
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Where the session file at `file` says it belongs, read from its first line only (the coordinator owns no session
 * content). Undefined when the file is missing or unreadable, its first line is not a session header, or the
 * header names another session id: to a caller, all of these are "no such session file".
 */
export async function readSessionFileOrigin(file: string, sessionId: string): Promise<SessionFileOrigin | undefined> {
  const firstLine = await readFirstLine(file);
  if (firstLine === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(firstLine);
  } catch {
    return undefined;
  }
  const header = sessionHeaderSchema.safeParse(parsed);
  if (!header.success || header.data.sessionId !== sessionId) return undefined;
  const { cwd, forkedFrom } = header.data;
  return { cwd, workspaceId: workspaceIdOf(cwd), forkedFrom: forkedFrom?.sessionId ?? null };
}

async function readFirstLine(file: string): Promise<string | undefined> {
  let handle;
  try {
    // Non-blocking, so a FIFO planted under the name cannot hold a thread; only a regular file is read.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!(await handle.stat()).isFile()) return undefined;
    const buffer = Buffer.alloc(MAX_HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_HEADER_BYTES, 0);
    const end = buffer.subarray(0, bytesRead).indexOf(0x0a);
    return end === -1 ? undefined : buffer.subarray(0, end).toString('utf8');
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}
