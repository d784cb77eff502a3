import type { SessionFacet } from '@pi/plugin-api';
import { EMPTY_TODO_LIST, TODO_PLUGIN_ID, TODO_TOOL_NAME, TodoPanel, type TodoList } from '@pi/todo';
import { todoTool } from './todo-tool';

/** The manifest id this facet answers to. */
export const pluginId = TODO_PLUGIN_ID;

/**
 * The session facet of @pi/todo: the list lives in one durable view every client sees (so it comes back, with
 * its id, when the session restarts), and the `todo` tool changes it.
 */
export const todoSessionFacet: SessionFacet = (context) => {
  const panel = context.view<TodoList, never>(TodoPanel, EMPTY_TODO_LIST, { to: 'all', durable: true, id: 'list' });
  const tool = todoTool(panel);
  context.tools.add((draft) => draft.set(TODO_TOOL_NAME, tool));
};

/** The session host imports the module the contract's "pi" field names and runs its default export. */
export default todoSessionFacet;
