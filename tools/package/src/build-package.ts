import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { bundleDeclarations } from './bundle-declarations';
import { bundleJavaScript } from './bundle-javascript';
import { packedManifest, type PackedManifest } from './packed-manifest';
import { PUBLISHED_PACKAGES } from './published-packages';
import { internalClosure, readManifest, readWorkspacePackages } from './workspace-packages';
import { WORKSPACE_ROOT } from './workspace-root';

export interface BuildOptions {
  readonly root?: string;
  /** Where the package is built (default `<package>/dist`); emptied first. */
  readonly outDir?: string;
}

export interface BuiltPackage {
  /** The folder `npm pack` packs. */
  readonly dir: string;
  readonly manifest: PackedManifest;
}

/**
 * Builds a published package: `index.js` (ES module, internal libraries bundled), `index.d.ts` (declarations
 * bundled the same way), the generated `package.json`, and the README.
 */
export async function buildPackage(name: string, options: BuildOptions = {}): Promise<BuiltPackage> {
  const root = options.root ?? WORKSPACE_ROOT;
  const published = PUBLISHED_PACKAGES[name];
  if (published === undefined) throw new Error(`${name} is not listed in tools/package/src/published-packages.ts`);
  const packages = await readWorkspacePackages(root);
  const source = packages.get(name);
  if (source === undefined) throw new Error(`${name} is not a package of the workspace at ${root}`);

  const nodeEngine = (await readManifest(root)).engines?.node ?? '>=20';
  const outDir = options.outDir ?? join(source.dir, 'dist');
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const entry = join(source.dir, published.entry);
  const scripts = await bundleJavaScript(entry, join(outDir, 'index.js'), `node${/[\d.]+/.exec(nodeEngine)?.[0]}`);
  const closure = internalClosure(name, packages);
  const types = await bundleDeclarations({ root, entry, closure });
  await writeFile(join(outDir, 'index.d.ts'), types.text);

  const externals = [...scripts, ...types.imports.filter((name) => !isBuiltin(name))];
  const bundled = closure.map((found) => found.manifest);
  const manifest = packedManifest(source.manifest, externals, bundled, nodeEngine);
  await writeFile(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (existsSync(join(source.dir, 'README.md')))
    await copyFile(join(source.dir, 'README.md'), join(outDir, 'README.md'));
  return { dir: outDir, manifest };
}
