import { readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { writeFileAtomic } from '@pi/atomic-file';
import { isRunning } from './process-liveness';

/** What a client needs to attach to a running session; it holds the token, so it is written 0600. */
export const connectionInfoSchema = z.strictObject({
  sessionId: z.string().min(1).max(64),
  /** The project directory the session works in. */
  cwd: z.string().min(1),
  socketPath: z.string().min(1),
  url: z.string().nullable(),
  token: z.string().min(1).max(512),
  pid: z.number().int().positive(),
});

export type ConnectionInfo = z.infer<typeof connectionInfoSchema>;

export async function writeConnectionFile(path: string, info: ConnectionInfo): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(info, null, 2)}\n`, { fileMode: 0o600 });
}

export async function removeConnectionFile(path: string): Promise<void> {
  await rm(path, { force: true });
}

/** Reads one connection file; a missing, unreadable or malformed file is an error value naming it. */
export async function readConnectionFile(path: string): Promise<Result<ConnectionInfo, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return err(`Cannot read the connection file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err(`The connection file ${path} is not JSON`);
  }
  const parsed = connectionInfoSchema.safeParse(json);
  return parsed.success ? ok(parsed.data) : err(`The connection file ${path} is not a pi connection file`);
}

/** The sessions running on this machine, from their connection files (files of dead processes are skipped). */
export async function listRunningSessions(dataDir: string): Promise<Array<ConnectionInfo & { file: string }>> {
  const folder = join(dataDir, 'sessions');
  const names = await readdir(folder).catch(() => [] as string[]);
  const found: Array<ConnectionInfo & { file: string }> = [];
  for (const name of names.filter((candidate) => candidate.endsWith('.connection.json')).sort()) {
    const file = join(folder, name);
    const info = await readConnectionFile(file);
    if (info.isOk() && isRunning(info.value.pid)) found.push({ ...info.value, file });
  }
  return found;
}

/**
 * The one running session a client should attach to: by id, or else the one working in `cwd`. None, or several
 * in one directory, is an error value that says what to do.
 */
export async function findRunningSession(
  dataDir: string,
  by: { readonly sessionId?: string | undefined; readonly cwd: string },
): Promise<Result<ConnectionInfo & { file: string }, string>> {
  const running = await listRunningSessions(dataDir);
  if (by.sessionId !== undefined) {
    const match = running.find((session) => session.sessionId === by.sessionId);
    return match === undefined
      ? err(`No running session "${by.sessionId}" (looked in ${join(dataDir, 'sessions')})`)
      : ok(match);
  }
  const here = running.filter((session) => session.cwd === by.cwd);
  if (here.length === 1 && here[0] !== undefined) return ok(here[0]);
  if (here.length === 0) return err(`No session is running in ${by.cwd}`);
  return err(
    `${here.length} sessions are running in ${by.cwd} (${here.map((session) => session.sessionId).join(', ')}); choose one with --session`,
  );
}
