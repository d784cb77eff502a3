/** The plugin's id: its package name, which manifests list. What it has facets for is in its package.json "pi" field. */
export const TODO_PLUGIN_ID = '@pi/todo';
