import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuiltPackage } from './build-package';
import { runNpm } from './npm';

/** `npm pack` of a built package into `destination`; returns the tarball's path. */
export async function packPackage(built: BuiltPackage, destination: string): Promise<string> {
  await mkdir(destination, { recursive: true });
  const output = await runNpm(['pack', '--json', '--ignore-scripts', '--pack-destination', destination], built.dir);
  const [packed] = JSON.parse(output) as Array<{ filename: string }>;
  if (packed === undefined) throw new Error(`npm pack printed no tarball for ${built.manifest.name}`);
  return join(destination, packed.filename);
}
