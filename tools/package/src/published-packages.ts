/**
 * The packages that are built for use outside this repository. Each bundles the `@pi/*` libraries it imports
 * and keeps every other package as a dependency of its own.
 */
export interface PublishedPackage {
  /** The source entry, relative to the package's folder. */
  readonly entry: string;
  /**
   * A program's command name: the package is then one executable bundle with every dependency inside it, and a
   * `bin` of that name, instead of a library with declarations.
   */
  readonly bin?: string;
  /**
   * App bundles (tools/app-bundle) a program carries beside its own bundle, each with a bin of its own: the
   * `pi-session` that `pi -p` and `pi --mode rpc` start where no session runs, and the `pi-tui` and
   * `pi-coordinator` its hints name, so one install is the whole agent (`pi-tui --start` in any folder).
   */
  readonly apps?: readonly string[];
}

export const PUBLISHED_PACKAGES: Readonly<Record<string, PublishedPackage>> = Object.freeze({
  '@pi/client': { entry: 'src/index.ts' },
  '@pi/plugin-api': { entry: 'src/index.ts' },
  '@pi/session-api': { entry: 'src/index.ts' },
  '@pi/cli': { entry: 'src/main.ts', bin: 'pi', apps: ['session', 'tui', 'coordinator'] },
});

/** Imports of this scope are bundled: no registry holds them. */
export const INTERNAL_SCOPE = '@pi/';

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}
