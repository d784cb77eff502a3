import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectOutcome } from '../project-batch';
import { CURRENT_BUNDLES_VARIABLE } from '@pi/connection-files/launch';
import { testsWithBundles } from './tests-with-bundles';

describe('tests after their program bundles', () => {
  let root: string;
  beforeEach(async () => void (root = await mkdtemp(join(tmpdir(), 'pi-tests-with-bundles-'))));
  afterEach(() => rm(root, { recursive: true, force: true }));

  const ranTests: string[][] = [];
  const vouchedFor: Array<string | undefined> = [];
  async function* runTests(_root: string, roots: readonly string[]): AsyncGenerator<ProjectOutcome> {
    ranTests.push([...roots]);
    vouchedFor.push(process.env[CURRENT_BUNDLES_VARIABLE]);
    for (const root of roots) yield { root, success: true, output: `${root} passed` };
  }
  const outcomes = async () => {
    const all: ProjectOutcome[] = [];
    for await (const outcome of testsWithBundles(root, ['libs/a', 'libs/b'], {}, runTests)) all.push(outcome);
    return all;
  };

  async function writeBundler(source: string) {
    await mkdir(join(root, 'tools/app-bundle/bin'), { recursive: true });
    await writeFile(join(root, 'tools/app-bundle/bin/bundle-apps.mjs'), source);
  }

  it('bundles first, then runs the tests', async () => {
    await writeBundler("import { writeFileSync } from 'node:fs';\nwriteFileSync('bundled', 'yes');\n");
    ranTests.length = 0;
    expect((await outcomes()).map((outcome) => outcome.success)).toEqual([true, true]);
    expect(ranTests).toEqual([['libs/a', 'libs/b']]);
    expect(await readFile(join(root, 'bundled'), 'utf-8')).toBe('yes');
  });

  it("tells the tests' programs the bundles are current, and puts the variable back after", async () => {
    // The worker running this file is itself under a test check that set it.
    const outer = process.env[CURRENT_BUNDLES_VARIABLE];
    await writeBundler('process.exit(0);\n');
    vouchedFor.length = 0;
    await outcomes();
    expect(vouchedFor).toEqual([join(root, 'dist', 'apps')]);
    expect(process.env[CURRENT_BUNDLES_VARIABLE]).toBe(outer);
  });

  it('fails every project with the bundler output when bundling fails, and runs no test', async () => {
    await writeBundler('console.error(\'esbuild: Could not resolve "pg-native"\');\nprocess.exit(1);\n');
    ranTests.length = 0;
    const failed = await outcomes();
    expect(failed.map((outcome) => [outcome.root, outcome.success])).toEqual([
      ['libs/a', false],
      ['libs/b', false],
    ]);
    expect(failed[0]?.output).toContain('Bundling the programs failed');
    expect(failed[0]?.output).toContain('Could not resolve "pg-native"');
    expect(ranTests).toEqual([]);
  });

  it('runs the tests straight away in a workspace without the bundler (a fixture), vouching for nothing', async () => {
    const outer = process.env[CURRENT_BUNDLES_VARIABLE];
    ranTests.length = 0;
    vouchedFor.length = 0;
    expect((await outcomes()).map((outcome) => outcome.root)).toEqual(['libs/a', 'libs/b']);
    expect(ranTests).toEqual([['libs/a', 'libs/b']]);
    expect(vouchedFor).toEqual([outer]);
  });
});
