import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from './write-file-atomic';

const modes = { fileMode: 0o600, directoryMode: 0o700, tightenDirectory: true };

describe('writeFileAtomic', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-atomic-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('replaces the whole file and leaves only the file', async () => {
    const target = join(directory, 'nested', 'file.json');
    await writeFileAtomic(target, 'first', modes);
    await writeFileAtomic(target, 'second', modes);
    expect(await readFile(target, 'utf8')).toBe('second');
    expect(await readdir(join(directory, 'nested'))).toEqual(['file.json']);
    expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  it('keeps the old content and removes its temporary file when the rename fails', async () => {
    const target = join(directory, 'occupied');
    await mkdir(target);
    await writeFile(join(target, 'child'), 'keep');
    await expect(writeFileAtomic(target, 'new', modes)).rejects.toThrow();
    expect(await readdir(directory)).toEqual(['occupied']);
    expect(await readFile(join(target, 'child'), 'utf8')).toBe('keep');
  });
});

describe('serialQueue', () => {
  it('runs work one at a time in call order, and a failure rejects only its own caller', async () => {
    const { serialQueue } = await import('./serial-queue');
    const queue = serialQueue();
    const order: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = queue(async () => {
      await gate;
      order.push('first');
    });
    const failing = queue(async () => {
      order.push('second');
      throw new Error('boom');
    });
    const third = queue(async () => {
      order.push('third');
      return 3;
    });
    release();
    await first;
    await expect(failing).rejects.toThrow('boom');
    expect(await third).toBe(3);
    expect(order).toEqual(['first', 'second', 'third']);
  });
});
