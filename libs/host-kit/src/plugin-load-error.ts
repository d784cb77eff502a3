/** Why a manifest's plugins could not be loaded; each message names the plugin and where the manifest came from. */
export interface PluginLoadError {
  readonly code:
    | 'unknown_plugin'
    | 'not_a_plugin'
    | 'invalid_metadata'
    | 'api_mismatch'
    | 'duplicate_plugin'
    | 'missing_module'
    | 'load_failed'
    | 'invalid_facet'
    /** A module several hosts import has module-level mutable bindings (see `checkSharedModule`). */
    | 'multi_tier_state';
  /** The manifest entry as written (an id, a package name or a path). */
  readonly reference: string;
  readonly message: string;
  /** What a module threw while it was imported (for `PI_DEBUG`'s stack and causes, see `failureText`). */
  readonly cause?: unknown;
}

export function errorText(thrown: unknown): string {
  return thrown instanceof Error ? thrown.message : String(thrown);
}
