import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePackageSource } from './package-source';

let cwd: string;
beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'pi-source-'));
  await writeFile(join(cwd, 'greeter-1.0.0.tgz'), '');
});
afterAll(() => rm(cwd, { recursive: true, force: true }));

describe('package sources as pi install reads them', () => {
  it.each([
    ['@acme/greeter', { kind: 'npm', spec: '@acme/greeter' }],
    ['npm:greeter@1.2.0', { kind: 'npm', spec: 'greeter@1.2.0' }],
    ['git:github.com/acme/greeter@v1', { kind: 'git', spec: 'git+https://github.com/acme/greeter.git#v1' }],
    ['https://github.com/acme/greeter.git', { kind: 'git', spec: 'https://github.com/acme/greeter.git' }],
    ['github:acme/greeter', { kind: 'git', spec: 'github:acme/greeter' }],
  ])('%s', (given, expected) => {
    expect(parsePackageSource(given, cwd, '/home/u')._unsafeUnwrap()).toEqual(expected);
  });

  it('resolves a path, or a file that exists, against the directory', () => {
    expect(parsePackageSource('./greeter-1.0.0.tgz', cwd, undefined)._unsafeUnwrap()).toEqual({
      kind: 'path',
      spec: join(cwd, 'greeter-1.0.0.tgz'),
    });
    expect(parsePackageSource('greeter-1.0.0.tgz', cwd, undefined)._unsafeUnwrap().kind).toBe('path');
    expect(parsePackageSource('~/x.tgz', cwd, cwd)._unsafeUnwrapErr().message).toContain(join(cwd, 'x.tgz'));
  });
});
