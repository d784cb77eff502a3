/** Thrown when a registration reaches a scope that is disposing or disposed, so it cannot leak silently. */
export class StaleScopeError extends Error {
  override readonly name = 'StaleScopeError';

  constructor(
    readonly pluginId: string,
    readonly method: 'onActivate' | 'onDispose' | 'own' | 'effect',
  ) {
    super(
      `${method}() was called on the disposed lifecycle scope of plugin "${pluginId}"; the registration was refused`,
    );
  }
}

/** Thrown when onActivate is registered after the scope's activation ran, since the callback would never run. */
export class LateActivationError extends Error {
  override readonly name = 'LateActivationError';

  constructor(readonly pluginId: string) {
    super(`onActivate() was called after plugin "${pluginId}" was activated; the callback would never run`);
  }
}
