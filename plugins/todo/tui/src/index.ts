import type { Facet } from '@pi/plugin-api';
import { TODO_PLUGIN_ID, TodoPanel } from '@pi/todo';
import { todoPanelWidget } from './todo-panel-widget';

/** The manifest id this facet answers to. */
export const pluginId = TODO_PLUGIN_ID;

/** The TUI facet of @pi/todo: shows the session's todo panel above the transcript, updated as the model works. */
export const todoTuiFacet: Facet<'tui'> = (context) => {
  context.views.add({ definition: TodoPanel, placement: 'header', create: todoPanelWidget });
};

/** The TUI imports the module the contract's "pi" field names and runs its default export. */
export default todoTuiFacet;
