export {
  EMPTY_TODO_LIST,
  MAX_TODO_ITEMS,
  MAX_TODO_TEXT_LENGTH,
  TODO_LIST,
  TODO_TOOL_NAME,
  TodoPanel,
  todoListSchema,
  type TodoAction,
  type TodoDetails,
  type TodoItem,
  type TodoList,
} from './todo-panel';
export { TODO_PLUGIN_ID } from './plugin';
