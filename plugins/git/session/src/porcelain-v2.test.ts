import { afterEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PorcelainV2Parser, type PorcelainStatus } from './porcelain-v2';
import { RecordSplitter } from './output-records';
import { git, initRepository, removeDirectory, temporaryDirectory, writeProjectFile } from './testing/git-repository';

const OID = 'a'.repeat(40);
const OTHER = 'b'.repeat(40);
const HEADERS = [`# branch.oid ${OID}`, '# branch.head main'];

function parse(records: string[]): ReturnType<PorcelainV2Parser['result']> | string {
  const parser = new PorcelainV2Parser();
  for (const record of records) {
    const problem = parser.accept(record);
    if (problem !== undefined) return problem;
  }
  return parser.result();
}

function parsed(records: string[]): PorcelainStatus {
  const result = parse(records);
  if (typeof result === 'string') throw new Error(result);
  return result._unsafeUnwrap();
}

describe('reading git status --porcelain=v2 --branch -z', () => {
  it('reads the branch headers: commit, branch, upstream and ahead/behind', () => {
    const status = parsed([...HEADERS, '# branch.upstream origin/main', '# branch.ab +2 -3']);
    expect(status).toEqual({
      oid: OID,
      head: 'main',
      upstream: 'origin/main',
      aheadBehind: { ahead: 2, behind: 3 },
      changes: { staged: 0, unstaged: 0, untracked: 0, conflicted: 0 },
    });
  });

  it('reads a branch without commits and a detached HEAD', () => {
    expect(parsed(['# branch.oid (initial)', '# branch.head main'])).toMatchObject({ oid: null, head: 'main' });
    expect(parsed([`# branch.oid ${OID}`, '# branch.head (detached)'])).toMatchObject({ oid: OID, head: null });
  });

  it('counts staged and unstaged sides of changed entries, untracked and unmerged ones', () => {
    const status = parsed([
      ...HEADERS,
      `1 M. N... 100644 100644 100644 ${OID} ${OTHER} staged.txt`,
      `1 .M N... 100644 100644 100644 ${OID} ${OID} unstaged file with spaces.txt`,
      `1 MM N... 100644 100644 100644 ${OID} ${OTHER} both.txt`,
      `2 R. N... 100644 100644 100644 ${OID} ${OID} R100 new name.txt`,
      'old name.txt',
      `u UU N... 100644 100644 100644 100644 ${OID} ${OTHER} ${OID} conflict.txt`,
      '? untracked.txt',
      '? new-directory/',
      '! ignored.log',
    ]);
    expect(status.changes).toEqual({ staged: 3, unstaged: 2, untracked: 2, conflicted: 1 });
  });

  it('takes a rename’s original path as part of the entry, whatever it looks like', () => {
    const status = parsed([...HEADERS, `2 .R N... 100644 100644 100644 ${OID} ${OID} R90 b`, '? looks-like-an-entry']);
    expect(status.changes).toEqual({ staged: 0, unstaged: 1, untracked: 0, conflicted: 0 });
  });

  it('accepts SHA-256 object names and submodule states', () => {
    const long = 'c'.repeat(64);
    const status = parsed([
      `# branch.oid ${long}`,
      '# branch.head main',
      `1 .M SCM. 160000 160000 160000 ${long} ${long} sub`,
    ]);
    expect(status).toMatchObject({ oid: long, changes: { unstaged: 1 } });
  });

  it('skips headers it does not know, as git asks of parsers', () => {
    expect(parsed([...HEADERS, '# stash 3', '# something.new value']).head).toBe('main');
  });

  it('refuses unknown entry kinds, malformed fields and missing headers', () => {
    const cases: string[][] = [
      [...HEADERS, 'x what'],
      [...HEADERS, `1 M N... 100644 100644 100644 ${OID} ${OID} short-xy`],
      [...HEADERS, `1 M. N... 10064 100644 100644 ${OID} ${OID} mode`],
      [...HEADERS, `1 M. N... 100644 100644 100644 ${OID} nothex path`],
      [...HEADERS, `1 M. N... 100644 100644 100644 ${OID} ${OID}`],
      [...HEADERS, `1 M. N... 100644 100644 100644 ${OID} ${OID} `],
      [...HEADERS, `2 R. N... 100644 100644 100644 ${OID} ${OID} X100 path`, 'old'],
      [...HEADERS, '# branch.ab 2 3'],
      [...HEADERS, '? '],
      ['# branch.head main'],
      [`# branch.oid ${OID}`],
      ['# branch.oid HEAD', '# branch.head main'],
      [...HEADERS, `2 R. N... 100644 100644 100644 ${OID} ${OID} R100 new`],
    ];
    for (const records of cases) {
      const result = parse(records);
      expect(typeof result === 'string' || result.isErr(), JSON.stringify(records)).toBe(true);
    }
  });
});

describe('porcelain v2 from a real git', () => {
  let directory: string | undefined;
  afterEach(async () => {
    if (directory !== undefined) await removeDirectory(directory);
    directory = undefined;
  });

  it('counts what git reports for a tree with every kind of change', async () => {
    directory = await temporaryDirectory();
    await initRepository(directory);
    await writeProjectFile(directory, 'a.txt', 'a\n');
    await writeProjectFile(directory, 'b c.txt', 'b\n');
    await git(directory, 'add', 'a.txt', 'b c.txt');
    await git(directory, 'commit', '--quiet', '--message', 'two files');
    await git(directory, 'mv', 'a.txt', 'renamed.txt');
    await writeFile(join(directory, 'b c.txt'), 'changed\n');
    await writeProjectFile(directory, 'staged.txt', 'new\n');
    await git(directory, 'add', 'staged.txt');
    await writeProjectFile(directory, 'untracked/inside.txt', 'x\n');

    const output = Buffer.from(await git(directory, 'status', '--porcelain=v2', '--branch', '-z'), 'utf8');
    const parser = new PorcelainV2Parser();
    const splitter = new RecordSplitter('nul', parser.accept);
    // Fed in small chunks, as a pipe may deliver it.
    for (let start = 0; start < output.length; start += 7) {
      expect(splitter.push(output.subarray(start, start + 7))).toBeUndefined();
    }
    expect(splitter.end()).toBeUndefined();
    expect(parser.result()._unsafeUnwrap()).toMatchObject({
      head: 'main',
      upstream: null,
      aheadBehind: null,
      changes: { staged: 2, unstaged: 1, untracked: 1, conflicted: 0 },
    });
  });
});
