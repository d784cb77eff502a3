import type { PluginProjectKind } from './facets';

/** Every spelling of a plugin's name that the generated files use. */
export interface PluginNames {
  /** kebab-case feature name, also the folder under plugins/: `session-directory` */
  readonly name: string;
  /** the plugin id in manifests, which is also the contract's package name: `@pi/session-directory` */
  readonly pluginId: string;
  /** prefix of function names: `sessionDirectory` */
  readonly camel: string;
  /** the contract's id constant: `SESSION_DIRECTORY_PLUGIN_ID` */
  readonly idConstant: string;
  /** the id of the sample remote service on the wire: `session-directory-greeting` */
  readonly serviceId: string;
}

/** The longest name whose sample service id stays within the 64 characters a service id may have. */
export const MAX_PLUGIN_NAME_LENGTH = 50;

const kebabCase = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

export function isKebabCase(name: string): boolean {
  return kebabCase.test(name);
}

export function pluginNames(name: string): PluginNames {
  const words = name.split('-');
  return {
    name,
    pluginId: `@pi/${name}`,
    camel: words.map((word, index) => (index === 0 ? word : word[0]?.toUpperCase() + word.slice(1))).join(''),
    idConstant: `${words.join('_').toUpperCase()}_PLUGIN_ID`,
    serviceId: `${name}-greeting`,
  };
}

/**
 * The npm package (and Nx project) name of one project of the plugin: the contract is the plugin's identity
 * package, named by the plugin id; each facet is `@pi/<name>-<host>`.
 */
export function projectPackageName(name: string, kind: PluginProjectKind): string {
  return kind === 'contract' ? `@pi/${name}` : `@pi/${name}-${kind}`;
}
