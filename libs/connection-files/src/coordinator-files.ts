import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import { z } from 'zod';
import { writeFileAtomic } from '@pi/atomic-file';

export const coordinatorConnectionSchema = z.strictObject({
  socketPath: z.string().min(1),
  token: z.string().min(1).max(512),
  pid: z.number().int().positive(),
});

export type CoordinatorConnection = z.infer<typeof coordinatorConnectionSchema>;

export async function writeCoordinatorConnection(path: string, info: CoordinatorConnection): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(info, null, 2)}\n`, { fileMode: 0o600 });
}

/** Reads the coordinator's connection file; missing or malformed is an error value naming it. */
export async function readCoordinatorConnection(path: string): Promise<Result<CoordinatorConnection, string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return err(`Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    const parsed = coordinatorConnectionSchema.safeParse(JSON.parse(text));
    return parsed.success ? ok(parsed.data) : err(`${path} is not a pi coordinator connection file`);
  } catch {
    return err(`${path} is not JSON`);
  }
}

/** Sessions of one project share a workspace id, derived from its directory (an absolute, resolved path). */
export function workspaceIdOf(cwd: string): string {
  return `w-${createHash('sha256').update(cwd).digest('hex').slice(0, 16)}`;
}
