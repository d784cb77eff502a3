import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateNodesContextV2 } from '@nx/devkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodesV2 } from './typecheck-inference';

describe('the inferred typecheck target', () => {
  let root: string;
  beforeEach(async () => void (root = await mkdtemp(join(tmpdir(), 'pi-typecheck-inference-'))));
  afterEach(() => rm(root, { recursive: true, force: true }));

  async function inferred(files: string[]) {
    const [, create] = createNodesV2;
    return create(files, undefined, { workspaceRoot: root } as CreateNodesContextV2);
  }

  it('is cached on the compiler that runs it, so a new TypeScript checks again', async () => {
    await mkdir(join(root, 'libs', 'a'), { recursive: true });
    await writeFile(join(root, 'libs', 'a', 'package.json'), '{}');
    const [[, result] = []] = await inferred(['libs/a/tsconfig.json']);
    const target = result?.projects?.['libs/a']?.targets?.['typecheck'];
    expect(target?.executor).toBe('@pi/workspace:check');
    expect(target?.options).toEqual({ check: 'typecheck' });
    expect(target?.inputs).toContainEqual({ externalDependencies: ['typescript-native'] });
  });

  it('gives none to a tsconfig.json without a package.json beside it, nor to the solution at the root', async () => {
    await mkdir(join(root, 'loose'), { recursive: true });
    expect(await inferred(['loose/tsconfig.json', 'tsconfig.json'])).toEqual([]);
  });
});
