import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatFileDurations, longestFirst, readFileDurations } from './file-order';

const file = (project: string, path: string) => ({ project, file: path });

describe('the order test files are handed to the workers', () => {
  it('puts the longest files first and keeps each project’s files together, projects by their longest file', () => {
    const durations = new Map([
      ['a/short.test.ts', 100],
      ['a/long.test.ts', 5_000],
      ['b/slowest.test.ts', 50_000],
      ['b/quick.test.ts', 10],
      ['c/mid.test.ts', 8_000],
    ]);
    const files = [
      file('shared-1', 'a/short.test.ts'),
      file('shared-1', 'a/long.test.ts'),
      file('shared-2', 'b/quick.test.ts'),
      file('shared-2', 'b/slowest.test.ts'),
      file('shared-1', 'c/mid.test.ts'),
    ];
    expect(longestFirst(files, durations).map((placed) => placed.file)).toEqual([
      'b/slowest.test.ts',
      'b/quick.test.ts',
      'c/mid.test.ts',
      'a/long.test.ts',
      'a/short.test.ts',
    ]);
  });

  it('runs a file with no known duration first, and orders equal ones by path so the order is the same every run', () => {
    const files = [
      file('p', 'z.test.ts'),
      file('p', 'known.test.ts'),
      file('p', 'new.test.ts'),
      file('p', 'a.test.ts'),
    ];
    const durations = new Map([
      ['known.test.ts', 1_000],
      ['z.test.ts', 10],
      ['a.test.ts', 10],
    ]);
    expect(longestFirst(files, durations).map((placed) => placed.file)).toEqual([
      'new.test.ts',
      'known.test.ts',
      'a.test.ts',
      'z.test.ts',
    ]);
  });

  it('reads a durations file back as it was written, and a missing or malformed one as no durations', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'file-order-'));
    try {
      const path = join(dir, 'durations.json');
      await writeFile(
        path,
        formatFileDurations(
          new Map([
            ['b.test.ts', 2.6],
            ['a.test.ts', 1_000],
          ]),
        ),
      );
      expect(await readFileDurations(path)).toEqual(
        new Map([
          ['a.test.ts', 1_000],
          ['b.test.ts', 3],
        ]),
      );
      for (const text of ['not json', '[1, 2]', 'null']) {
        await writeFile(path, text);
        expect(await readFileDurations(path)).toEqual(new Map());
      }
      await writeFile(path, '{"a.test.ts": "slow", "b.test.ts": 5}');
      expect(await readFileDurations(path)).toEqual(new Map([['b.test.ts', 5]]));
      expect(await readFileDurations(join(dir, 'missing.json'))).toEqual(new Map());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
