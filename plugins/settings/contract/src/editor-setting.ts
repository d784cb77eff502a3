/**
 * The setting that chooses the prompt editor of every TUI (the exclusive `editor` slot): the id of a TUI plugin that
 * contributes an editor, or '' for pi's own. Declared by the settings plugin's session facet, applied by its TUI facet.
 */
export const EDITOR_SETTING = 'promptEditor';
