import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generateDtsBundle } from 'dts-bundle-generator';
import ts from 'typescript';
import { INTERNAL_SCOPE, packageNameOf } from './published-packages';
import type { WorkspacePackage } from './workspace-packages';

/**
 * Internal packages resolve to their sources through `paths` instead of node_modules links: TypeScript treats a
 * file reached through node_modules as an external library and emits no declarations for it.
 */
function sourcePaths(packages: ReadonlyMap<string, WorkspacePackage>): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const [name, { dir, manifest }] of packages) {
    if (!name.startsWith(INTERNAL_SCOPE)) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const file = typeof target === 'string' ? target : (target['types'] ?? target['default']);
      if (file !== undefined) paths[join(name, subpath)] = [join(dir, file)];
    }
  }
  return paths;
}

/**
 * One declaration file for `entry` with the internal libraries' types inlined; it exports exactly what the entry
 * exports. `scratch` receives the tsconfig used. Returns the text and the packages it still imports.
 */
export async function bundleDeclarations(options: {
  readonly entry: string;
  readonly projectTsconfig: string;
  readonly packages: ReadonlyMap<string, WorkspacePackage>;
  readonly scratch: string;
}): Promise<{ text: string; imports: string[] }> {
  await mkdir(options.scratch, { recursive: true });
  const tsconfig = join(options.scratch, 'tsconfig.json');
  const config = {
    extends: options.projectTsconfig,
    compilerOptions: { paths: sourcePaths(options.packages) },
    files: [options.entry],
    include: [],
  };
  await writeFile(tsconfig, JSON.stringify(config, null, 2));
  const [text = ''] = generateDtsBundle(
    [{ filePath: options.entry, output: { exportReferencedTypes: false, noBanner: true } }],
    { preferredConfigPath: tsconfig },
  );
  const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
  return { text, imports: [...new Set(specifiers.map(packageNameOf))].sort() };
}
