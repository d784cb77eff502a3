export { installPackage, removePackage, scopeFilesFor, type PackageRequest } from './install-package';
export {
  RESOURCE_KINDS,
  installedPackages,
  packageResourceDirs,
  type InstalledPackage,
  type PackageScopes,
  type ResourceKind,
} from './installed-packages';
export { PackageErrorCode, type PackageError } from './package-error';
export { parsePackageSource, type PackageSource } from './package-source';
