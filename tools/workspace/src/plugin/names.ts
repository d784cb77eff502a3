/** Every spelling of a plugin's name that the generated files use. */
export interface PluginNames {
  /** kebab-case feature name, also the folder under plugins/: `session-directory` */
  readonly name: string;
  /** the plugin id in manifests: `@pi/session-directory` */
  readonly pluginId: string;
  /** prefix of function names: `sessionDirectory` */
  readonly camel: string;
  /** the contract's id constant: `SESSION_DIRECTORY_PLUGIN_ID` */
  readonly idConstant: string;
}

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
  };
}

/** The npm package (and Nx project) name of one project of the plugin. */
export function projectPackageName(name: string, kind: string): string {
  return `@pi/${name}-${kind}`;
}
