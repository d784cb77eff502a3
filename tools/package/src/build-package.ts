import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { bundleDeclarations } from './bundle-declarations';
import { bundleJavaScript } from './bundle-javascript';
import { bundleProgram } from './bundle-program';
import { bundleCarriedApp } from './carried-apps';
import {
  packedManifest,
  packedProgramManifest,
  type PackedManifest,
  type PackedProgramManifest,
} from './packed-manifest';
import { PUBLISHED_PACKAGES } from './published-packages';
import { internalClosure, readManifest, readWorkspacePackages, type WorkspacePackage } from './workspace-packages';
import { WORKSPACE_ROOT } from './workspace-root';

export interface BuildOptions {
  readonly root?: string;
  /** Where the package is built (default `<package>/dist`); emptied first. */
  readonly outDir?: string;
}

export interface BuiltPackage {
  /** The folder `npm pack` packs. */
  readonly dir: string;
  readonly manifest: PackedManifest | PackedProgramManifest;
}

/** The TypeScript versions the workspace checks with: its `typescript` and the native compiler's alias. */
function typescriptVersions(devDependencies: Readonly<Record<string, string>>): string[] {
  const versions = [devDependencies['typescript'], /@([\d.]+)$/.exec(devDependencies['typescript-native'] ?? '')?.[1]];
  return versions.filter((version): version is string => version !== undefined);
}

/**
 * Builds a published package: `index.js` (ES module, internal libraries bundled), `index.d.ts` (declarations
 * bundled the same way), the generated `package.json`, and the README; a program instead is `bin/<bin>.mjs` with
 * every dependency bundled, and the app bundles it carries in folders beside `bin/`, depending on the packages those
 * load from node_modules.
 */
export async function buildPackage(name: string, options: BuildOptions = {}): Promise<BuiltPackage> {
  const root = options.root ?? WORKSPACE_ROOT;
  const published = PUBLISHED_PACKAGES[name];
  if (published === undefined) throw new Error(`${name} is not listed in tools/package/src/published-packages.ts`);
  const packages = await readWorkspacePackages(root);
  const source = packages.get(name);
  if (source === undefined) throw new Error(`${name} is not a package of the workspace at ${root}`);

  const workspace = await readManifest(root);
  const nodeEngine = workspace.engines?.node ?? '>=20';
  const nodeTarget = `node${/[\d.]+/.exec(nodeEngine)?.[0]}`;
  const outDir = options.outDir ?? join(source.dir, 'dist');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const entry = join(source.dir, published.entry);
  const readme = join(source.dir, 'README.md');
  if (existsSync(readme)) await copyFile(readme, join(outDir, 'README.md'));
  if (published.bin !== undefined) {
    const bin: Record<string, string> = { [published.bin]: `./bin/${published.bin}.mjs` };
    await mkdir(join(outDir, 'bin'));
    await bundleProgram(entry, join(outDir, 'bin', `${published.bin}.mjs`), nodeTarget);
    const runtime: string[] = [];
    const apps: WorkspacePackage[] = [];
    for (const app of published.apps ?? []) {
      const carried = await bundleCarriedApp(app, outDir, root);
      bin[carried.command] = carried.bin;
      runtime.push(...carried.packages);
      apps.push(...internalClosure((await readManifest(join(root, 'apps', app))).name, packages));
    }
    const declaring = apps.map((found) => found.manifest);
    const manifest = packedProgramManifest(source.manifest, bin, nodeEngine, runtime, declaring);
    await writeFile(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    return { dir: outDir, manifest };
  }
  const scripts = await bundleJavaScript(entry, join(outDir, 'index.js'), nodeTarget);
  const closure = internalClosure(name, packages);
  const types = await bundleDeclarations({ root, entry, closure });
  await writeFile(join(outDir, 'index.d.ts'), types.text);

  const externals = [...scripts, ...types.imports.filter((name) => !isBuiltin(name))];
  const bundled = closure.map((found) => found.manifest);
  const typescript = typescriptVersions(workspace.devDependencies ?? {});
  const manifest = packedManifest(source.manifest, externals, bundled, { nodeEngine, typescript });
  await writeFile(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir: outDir, manifest };
}
