import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { workspaceRoot } from '../src/index';

// The test executor runs files with isolate off: a worker imports a shared module once for many test files. A hook
// a shared (non-test) module registers when imported would run for the first of those files only, and the fixtures
// of the others would never be cleaned up. Shared fixtures register `onTestFinished` per fixture instead.
const HOOK_AT_IMPORT = /^(afterEach|afterAll|beforeEach|beforeAll)\(/m;

async function sourceFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await sourceFiles(path)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) found.push(path);
  }
  return found;
}

describe('shared test modules', () => {
  it('register no vitest hook when imported (it would serve only the first test file of a worker)', async () => {
    const offenders: string[] = [];
    for (const top of ['apps', 'libs', 'plugins', 'tools']) {
      for (const file of await sourceFiles(join(workspaceRoot, top))) {
        if (HOOK_AT_IMPORT.test(await readFile(file, 'utf8'))) offenders.push(relative(workspaceRoot, file));
      }
    }
    expect(offenders).toEqual([]);
  });
});
