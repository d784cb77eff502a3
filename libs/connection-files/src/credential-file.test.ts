import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSessionCredentialFile, writeSessionCredentialFile } from './credential-file';

let folder: string | undefined;
afterEach(async () => {
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  folder = undefined;
});

const CONTENTS = { version: 1 as const, sessionId: 's-1', workspaceId: 'w-1', credential: 'payload.mac' };

describe('the session credential file', () => {
  it('is written for the user alone and read back as written', async () => {
    folder = await mkdtemp(join(tmpdir(), 'pi-credential-'));
    const file = join(folder, 'credential.json');
    await writeSessionCredentialFile(file, CONTENTS);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readSessionCredentialFile(file))._unsafeUnwrap()).toEqual(CONTENTS);
  });

  it('says in one line that a file is missing, not JSON, or not one enroll wrote', async () => {
    folder = await mkdtemp(join(tmpdir(), 'pi-credential-'));
    const file = join(folder, 'credential.json');
    expect((await readSessionCredentialFile(file))._unsafeUnwrapErr()).toBe(
      `Cannot read the credential file ${file}: ENOENT`,
    );
    await writeFile(file, 'not json');
    expect((await readSessionCredentialFile(file))._unsafeUnwrapErr()).toBe(
      `The credential file ${file} is not JSON (pi-coordinator enroll --out writes one)`,
    );
    await writeFile(file, JSON.stringify({ ...CONTENTS, sessionId: '../escape' }));
    expect((await readSessionCredentialFile(file))._unsafeUnwrapErr()).toMatch(
      new RegExp(`^The credential file ${file} is not one pi-coordinator enroll wrote: .+$`),
    );
  });
});
