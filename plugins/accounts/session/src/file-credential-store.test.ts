import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CredentialStoreError } from '@pi/accounts';
import { createFileCredentialStore } from './file-credential-store';

const SECRET = 'sk-test-4f9b2c0e7a1d';

describe('the file credential store', () => {
  let directory: string;
  let configDir: string;
  let file: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-credentials-'));
    configDir = join(directory, 'config');
    file = join(configDir, 'credentials.json');
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('has no credentials before anything is stored, and creates no file to say so', async () => {
    const store = createFileCredentialStore(file);
    expect(await store.get('openai')).toBeUndefined();
    expect(await store.list()).toEqual([]);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('returns a stored key, lists providers sorted and forgets a removed one', async () => {
    const store = createFileCredentialStore(file);
    await store.set('openrouter', SECRET);
    await store.set('anthropic', 'sk-other');
    expect(await store.get('openrouter')).toBe(SECRET);
    expect(await store.list()).toEqual(['anthropic', 'openrouter']);
    expect(await store.remove('openrouter')).toBe(true);
    expect(await store.remove('openrouter')).toBe(false);
    expect(await store.get('openrouter')).toBeUndefined();
    expect(await createFileCredentialStore(file).list()).toEqual(['anthropic']);
  });

  it('writes the file with mode 0600 in a directory with mode 0700', async () => {
    await createFileCredentialStore(file).set('openai', SECRET);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(configDir)).mode & 0o777).toBe(0o700);
  });

  it('tightens a file and a directory that were readable by others', async () => {
    await mkdir(configDir, { mode: 0o755 });
    await chmod(configDir, 0o755);
    await writeFile(file, JSON.stringify({ version: 1, providers: {} }), { mode: 0o644 });
    await createFileCredentialStore(file).set('openai', SECRET);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(configDir)).mode & 0o777).toBe(0o700);
  });

  it('leaves no temporary file behind after writing', async () => {
    const store = createFileCredentialStore(file);
    await store.set('openai', SECRET);
    await store.remove('openai');
    expect(await readdir(configDir)).toEqual(['credentials.json']);
  });

  it('keeps every key when many are written at once', async () => {
    const store = createFileCredentialStore(file);
    const ids = Array.from({ length: 20 }, (_, index) => `provider-${String(index).padStart(2, '0')}`);
    await Promise.all(ids.map((id) => store.set(id, `${SECRET}-${id}`)));
    expect(await store.list()).toEqual(ids);
    expect(await store.get('provider-07')).toBe(`${SECRET}-provider-07`);
  });

  it('refuses to touch a broken file, with a message that quotes none of it', async () => {
    await mkdir(configDir, { recursive: true });
    const broken = `{ "version": 1, "providers": { "openai": { "apiKey": "${SECRET}" } `;
    await writeFile(file, broken);
    const store = createFileCredentialStore(file);
    const failure = await store.get('openai').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CredentialStoreError);
    expect(failure).toMatchObject({ code: 'unreadable' });
    expect((failure as Error).message).not.toContain(SECRET);
    await expect(store.set('anthropic', 'sk-other')).rejects.toMatchObject({ code: 'unreadable' });
    expect(await readFile(file, 'utf8')).toBe(broken);
  });

  it('treats something that is not a file in its place as unreadable', async () => {
    await mkdir(file, { recursive: true });
    await expect(createFileCredentialStore(file).set('openai', SECRET)).rejects.toMatchObject({ code: 'unreadable' });
  });

  it('rejects provider ids that are not safe keys', async () => {
    const store = createFileCredentialStore(file);
    await expect(store.set('__proto__', SECRET)).rejects.toMatchObject({ code: 'invalid_provider' });
    await expect(store.set('openai', '')).rejects.toMatchObject({ code: 'invalid_credential' });
    expect(await store.get('__proto__')).toBeUndefined();
  });

  it('tells change listeners about writes, never with the key, until they are removed', async () => {
    const store = createFileCredentialStore(file);
    const calls: unknown[][] = [];
    const remove = store.onChange((...args: unknown[]) => void calls.push(args));
    await store.set('openai', SECRET);
    await store.remove('missing');
    await store.remove('openai');
    remove();
    await store.set('openai', SECRET);
    expect(calls).toEqual([[], []]);
  });
});
