import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuiltPackage } from './build-package';
import { runNpm } from './npm';

/** `npm pack` of a built package into `destination`; returns the tarball's path. */
export async function packPackage(built: BuiltPackage, destination: string): Promise<string> {
  const [tarball] = await packPackages([built], destination);
  if (tarball === undefined) throw new Error(`npm pack printed no tarball for ${built.manifest.name}`);
  return tarball;
}

/**
 * `npm pack` of built packages into `destination` by one npm (each npm costs ~0.4 s of CPU to start); returns their
 * tarballs' paths in the order of `built`.
 */
export async function packPackages(built: readonly BuiltPackage[], destination: string): Promise<string[]> {
  await mkdir(destination, { recursive: true });
  const folders = built.map((package_) => package_.dir);
  const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', destination, ...folders];
  const packed = JSON.parse(await runNpm(args, destination)) as Array<{ name: string; filename: string }>;
  return built.map(({ manifest }) => {
    const found = packed.find((tarball) => tarball.name === manifest.name);
    if (found === undefined) throw new Error(`npm pack printed no tarball for ${manifest.name}`);
    return join(destination, found.filename);
  });
}
