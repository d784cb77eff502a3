import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '@pi/atomic-file';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';

const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * A session's credential for a coordinator on another host (`pi-coordinator enroll --out FILE` writes it, mode 0600;
 * `pi-session --credential-file FILE` reads it): the file travels to the session's host, never the command line.
 */
export const sessionCredentialFileSchema = z.strictObject({
  version: z.literal(1),
  sessionId: z.string().regex(IDENTIFIER),
  workspaceId: z.string().regex(IDENTIFIER),
  credential: z.string().min(1).max(1024),
});

export type SessionCredentialFile = z.infer<typeof sessionCredentialFileSchema>;

export async function writeSessionCredentialFile(path: string, contents: SessionCredentialFile): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(contents, null, 2)}\n`, { fileMode: 0o600 });
}

/** Reads one credential file; a missing, unreadable or malformed file is one line naming it. */
export async function readSessionCredentialFile(path: string): Promise<Result<SessionCredentialFile, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return err(`Cannot read the credential file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return err(`The credential file ${path} is not JSON (pi-coordinator enroll --out writes one)`);
  }
  const parsed = sessionCredentialFileSchema.safeParse(json);
  return parsed.success
    ? ok(parsed.data)
    : err(`The credential file ${path} is not one pi-coordinator enroll wrote: ${parsed.error.issues[0]?.message}`);
}
