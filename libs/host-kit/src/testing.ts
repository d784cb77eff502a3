import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { EffectFailure } from '@pi/kernel';

/** A plugin package written to disk for a test: its package.json (with a `pi` field) and its modules. */
export interface PluginPackageFixture {
  /** Package name; also the folder under node_modules. */
  readonly name: string;
  /** The `pi` field as written (it may be invalid on purpose); leave out for a package that is no plugin. */
  readonly pi?: unknown;
  /** Files relative to the package folder, e.g. `{ 'session.mjs': 'export default () => {}' }`. */
  readonly files?: Readonly<Record<string, string>>;
}

/** A temporary folder with a `node_modules` to install fixture plugin packages into. */
export interface PluginSandbox {
  readonly root: string;
  /** Installs a package under `node_modules/<name>` and returns its folder. */
  install(fixture: PluginPackageFixture): Promise<string>;
  /** Writes a package at `relativeFolder` (for plugins named by path) and returns its folder. */
  place(relativeFolder: string, fixture: PluginPackageFixture): Promise<string>;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function createPluginSandbox(): Promise<PluginSandbox> {
  const root = await mkdtemp(join(tmpdir(), 'pi-plugins-'));
  const write = async (folder: string, fixture: PluginPackageFixture) => {
    await mkdir(folder, { recursive: true });
    const manifest = {
      name: fixture.name,
      version: '1.0.0',
      type: 'module',
      ...(fixture.pi === undefined ? {} : { pi: fixture.pi }),
    };
    await writeFile(join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
    for (const [file, text] of Object.entries(fixture.files ?? {})) {
      await mkdir(dirname(join(folder, file)), { recursive: true });
      await writeFile(join(folder, file), text);
    }
    return folder;
  };
  return {
    root,
    install: (fixture) => write(join(root, 'node_modules', fixture.name), fixture),
    place: (relativeFolder, fixture) => write(join(root, relativeFolder), fixture),
    [Symbol.asyncDispose]: () => rm(root, { recursive: true, force: true }),
  };
}

/** Module source that records its own evaluation, so a test can prove which modules a host imported. */
export function recordingModule(marker: string, body = 'export default () => {};'): string {
  return `(globalThis.__piLoadedModules ??= []).push(${JSON.stringify(marker)});\n${body}\n`;
}

/** The markers of every recording module evaluated in this process so far. */
export function loadedMarkers(): readonly string[] {
  return (globalThis as { __piLoadedModules?: string[] }).__piLoadedModules ?? [];
}

/** A test's reporter of effect failures: a failing effect the test did not expect fails it loudly. */
export function throwEffectFailure(failure: EffectFailure): never {
  throw new Error(`unexpected effect failure of ${failure.pluginId}: ${failure.message}`);
}
