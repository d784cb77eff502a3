/** Why a manifest was rejected; one code per distinct mistake an author can make. */
export const ManifestErrorCode = {
  notAnObject: 'not_an_object',
  missingPlugins: 'missing_plugins',
  pluginsNotArray: 'plugins_not_array',
  unknownKey: 'unknown_key',
  invalidEntry: 'invalid_entry',
  emptyId: 'empty_id',
  duplicateId: 'duplicate_id',
  invalidConfig: 'invalid_config',
  unreadableFile: 'unreadable_file',
  invalidJson: 'invalid_json',
} as const;

export type ManifestErrorCode = (typeof ManifestErrorCode)[keyof typeof ManifestErrorCode];

export interface ManifestError {
  readonly code: ManifestErrorCode;
  readonly message: string;
  /** The manifest file, when the manifest came from one. */
  readonly file?: string;
}
