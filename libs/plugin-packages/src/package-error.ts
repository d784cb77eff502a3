/** Why a package could not be installed, removed or listed; one code per distinct mistake. */
export const PackageErrorCode = {
  badSource: 'bad_source',
  npmFailed: 'npm_failed',
  notAPiPackage: 'not_a_pi_package',
  invalidPlugin: 'invalid_plugin',
  notInstalled: 'not_installed',
  badManifest: 'bad_manifest',
} as const;

export type PackageErrorCode = (typeof PackageErrorCode)[keyof typeof PackageErrorCode];

export interface PackageError {
  readonly code: PackageErrorCode;
  /** One line, naming the package and the file or folder concerned. */
  readonly message: string;
}
