import { join, relative } from 'node:path';
import { buildPackage } from './build-package';
import { packPackage } from './pack-package';
import { PUBLISHED_PACKAGES } from './published-packages';
import { WORKSPACE_ROOT } from './workspace-root';

// Builds and packs the named packages (default: every published one) into dist/packages.
const names = process.argv.slice(2);
for (const name of names.length > 0 ? names : Object.keys(PUBLISHED_PACKAGES)) {
  const tarball = await packPackage(await buildPackage(name), join(WORKSPACE_ROOT, 'dist', 'packages'));
  console.log(`${name}: ${relative(process.cwd(), tarball)}`);
}
