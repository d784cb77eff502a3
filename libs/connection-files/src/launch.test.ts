import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CURRENT_BUNDLES_VARIABLE, isBundleCurrent, isBundleVouchedFor } from './launch.mjs';

describe('whether an app bundle is current', () => {
  let workspace: string;
  const bundle = () => pathToFileURL(join(workspace, 'dist', 'apps', 'session', 'pi-session.mjs'));
  const built = async (builtAt: number, inputs: string[]) => {
    await mkdir(join(workspace, 'dist', 'apps', 'session'), { recursive: true });
    await writeFile(join(workspace, 'dist', 'apps', 'session', 'build-info.json'), JSON.stringify({ builtAt, inputs }));
  };
  const source = async (path: string, mtimeMs: number) => {
    await mkdir(join(workspace, path, '..'), { recursive: true });
    await writeFile(join(workspace, path), 'export {};\n');
    await utimes(join(workspace, path), mtimeMs / 1000, mtimeMs / 1000);
  };
  beforeEach(async () => void (workspace = await mkdtemp(join(tmpdir(), 'pi-launch-'))));
  afterEach(() => rm(workspace, { recursive: true, force: true }));

  it('is when no source file it was made of changed after it was built', async () => {
    await source('apps/session/src/main.ts', 1_000_000);
    await source('libs/json/src/index.ts', 1_500_000);
    await built(2_000_000, ['apps/session/src/main.ts', 'libs/json/src/index.ts']);
    expect(await isBundleCurrent(bundle())).toBe(true);
  });

  it('is not when a source file changed since, or is gone', async () => {
    await source('apps/session/src/main.ts', 1_000_000);
    await source('libs/json/src/index.ts', 3_000_000);
    await built(2_000_000, ['apps/session/src/main.ts', 'libs/json/src/index.ts']);
    expect(await isBundleCurrent(bundle())).toBe(false);
    await built(4_000_000, ['apps/session/src/main.ts', 'libs/gone/src/index.ts']);
    expect(await isBundleCurrent(bundle())).toBe(false);
  });

  it('is not when there is no bundle, or its build information is not readable', async () => {
    expect(await isBundleCurrent(bundle())).toBe(false);
    await mkdir(join(workspace, 'dist', 'apps', 'session'), { recursive: true });
    await writeFile(join(workspace, 'dist', 'apps', 'session', 'build-info.json'), '{"builtAt":"yesterday"}');
    expect(await isBundleCurrent(bundle())).toBe(false);
  });

  it('stats each source file once across the bundles that share a cache of mtimes', async () => {
    await source('apps/session/src/main.ts', 1_000_000);
    await built(2_000_000, ['apps/session/src/main.ts', 'libs/gone/src/index.ts']);
    const mtimes = new Map<string, number | null>();
    expect(await isBundleCurrent(bundle(), mtimes)).toBe(false);
    expect(Object.fromEntries(mtimes)).toEqual({
      'apps/session/src/main.ts': 1_000_000,
      'libs/gone/src/index.ts': null,
    });
    // What the cache holds is what counts: a file it saw unchanged is not stat'ed again.
    await source('apps/session/src/main.ts', 3_000_000);
    await built(2_000_000, ['apps/session/src/main.ts']);
    expect(await isBundleCurrent(bundle(), mtimes)).toBe(true);
    expect(await isBundleCurrent(bundle())).toBe(false);
  });
});

describe('a bundle the test run vouches for', () => {
  let workspace: string;
  const apps = () => join(workspace, 'dist', 'apps');
  const bundle = () => pathToFileURL(join(apps(), 'session', 'pi-session.mjs'));
  beforeEach(async () => {
    workspace = await mkdtemp(join(tmpdir(), 'pi-launch-'));
    await mkdir(join(apps(), 'session'), { recursive: true });
    await writeFile(join(apps(), 'session', 'pi-session.mjs'), 'export {};\n');
    // Built before its source changed: stale by its build information.
    await writeFile(join(apps(), 'session', 'build-info.json'), JSON.stringify({ builtAt: 1, inputs: ['gone.ts'] }));
  });
  afterEach(() => rm(workspace, { recursive: true, force: true }));

  it('is in the dist/apps folder PI_CURRENT_BUNDLES names, whatever its build information says', async () => {
    expect(CURRENT_BUNDLES_VARIABLE).toBe('PI_CURRENT_BUNDLES');
    expect(await isBundleCurrent(bundle())).toBe(false);
    expect(isBundleVouchedFor(bundle(), { [CURRENT_BUNDLES_VARIABLE]: apps() })).toBe(true);
    expect(isBundleVouchedFor(bundle(), { [CURRENT_BUNDLES_VARIABLE]: `${apps()}/` })).toBe(true);
  });

  it('is not without the variable, in another folder, or when the bundle is not there', async () => {
    expect(isBundleVouchedFor(bundle(), {})).toBe(false);
    expect(isBundleVouchedFor(bundle(), { [CURRENT_BUNDLES_VARIABLE]: '' })).toBe(false);
    expect(isBundleVouchedFor(bundle(), { [CURRENT_BUNDLES_VARIABLE]: join(workspace, 'elsewhere', 'apps') })).toBe(
      false,
    );
    const missing = pathToFileURL(join(apps(), 'tui', 'pi-tui.mjs'));
    expect(isBundleVouchedFor(missing, { [CURRENT_BUNDLES_VARIABLE]: apps() })).toBe(false);
  });
});
