export { buildPackage, type BuildOptions, type BuiltPackage } from './build-package';
export { packPackage, packPackages } from './pack-package';
export { npmEnvironment, runNpm } from './npm';
export { PUBLISHED_PACKAGES, type PublishedPackage } from './published-packages';
export type { PackedManifest, PackedProgramManifest } from './packed-manifest';
export { WORKSPACE_ROOT } from './workspace-root';
