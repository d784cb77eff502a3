import type { SessionFacet } from '@pi/plugin-api';
import {
  EMPTY_TODO_LIST,
  TODO_LIST,
  TODO_PLUGIN_ID,
  TODO_TOOL_NAME,
  TodoPanel,
  todoListSchema,
  type TodoList,
} from '@pi/todo';
import { todoTool } from './todo-tool';

/** The manifest id this facet answers to. */
export const pluginId = TODO_PLUGIN_ID;

/**
 * The session facet of @pi/todo: the list is a value of the plugin's bound storage (kept with the session), shown
 * in one durable view every client sees (durable, so it stays open while no client is attached), and the `todo`
 * tool changes it. A session from before bound storage kept the list in the view alone: that list is taken over.
 */
export const todoSessionFacet: SessionFacet = (context) => {
  const panel = context.view<TodoList, never>(TodoPanel, EMPTY_TODO_LIST, { to: 'all', durable: true, id: 'list' });
  const stored = todoListSchema.safeParse(context.store.get(TODO_LIST) ?? panel.state);
  if (!stored.success)
    context.diagnostics.report('warning', 'The stored todo list is not a todo list; it starts empty');
  const replace = (list: TodoList) => {
    context.store.set(TODO_LIST, list);
    panel.state = list;
  };
  replace(stored.success ? stored.data : EMPTY_TODO_LIST);
  const tool = todoTool({ current: () => context.store.get(TODO_LIST) ?? EMPTY_TODO_LIST, replace });
  context.tools.add((draft) => draft.set(TODO_TOOL_NAME, tool));
};

/** The session host imports the module the contract's "pi" field names and runs its default export. */
export default todoSessionFacet;
