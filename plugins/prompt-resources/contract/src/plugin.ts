/** The plugin's id: its package name, which manifests list. What it has facets for is in its package.json "pi" field. */
export const PROMPT_RESOURCES_PLUGIN_ID = '@pi/prompt-resources';

/** The prefix of a skill's slash command: `/skill:name` loads the skill `name`. */
export const SKILL_COMMAND_PREFIX = 'skill:';
