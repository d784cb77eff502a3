/** Why models.json could not be used; one code per distinct thing a user can fix. */
export const ConfigErrorCode = {
  unreadableFile: 'unreadable_file',
  invalidJson: 'invalid_json',
  invalidConfig: 'invalid_config',
  unwatchable: 'unwatchable',
  /** The file is larger than MAX_MODELS_JSON_BYTES; it was not read. */
  tooLarge: 'too_large',
  /** The file lists more than MAX_MODELS_JSON_MODELS models; none was taken. */
  tooManyModels: 'too_many_models',
} as const;

export type ConfigErrorCode = (typeof ConfigErrorCode)[keyof typeof ConfigErrorCode];

export interface ConfigError {
  readonly code: ConfigErrorCode;
  /** One line for a warning, e.g. `models.json /home/u/.pi/models.json: providers.x.baseUrl: Invalid URL`. */
  readonly message: string;
  /** The file, when the config came from one. */
  readonly file: string | null;
  /** Each validation problem as `<path>: <message>` (empty unless the code is invalid_config). */
  readonly issues: readonly string[];
  /** For too_large (bytes) and too_many_models (models): what the file has, and the most allowed. */
  readonly limit?: { readonly found: number; readonly max: number };
}
