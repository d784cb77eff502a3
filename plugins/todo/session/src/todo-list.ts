import { err, ok, type Result } from 'neverthrow';
import { MAX_TODO_ITEMS, type TodoAction, type TodoList } from '@pi/todo';

/** One change of the list, as the tool applies it; a refusal says why in words the model can act on. */
export function applyTodo(list: TodoList, action: TodoAction): Result<TodoList, string> {
  switch (action.action) {
    case 'add': {
      if (list.items.length >= MAX_TODO_ITEMS) return err(`The list is full (${MAX_TODO_ITEMS} entries): remove some`);
      const item = { id: list.nextId, text: action.text, done: false };
      return ok({ items: [...list.items, item], nextId: list.nextId + 1 });
    }
    case 'done':
    case 'remove': {
      if (!list.items.some((item) => item.id === action.id)) return err(`There is no entry ${action.id}`);
      const items =
        action.action === 'done'
          ? list.items.map((item) => (item.id === action.id ? { ...item, done: true } : item))
          : list.items.filter((item) => item.id !== action.id);
      return ok({ ...list, items });
    }
  }
}

/** The list as the model reads it back: one line per entry. */
export function describeTodos(list: TodoList): string {
  if (list.items.length === 0) return 'The todo list is empty.';
  return list.items.map((item) => `${item.done ? '[x]' : '[ ]'} ${item.id}. ${item.text}`).join('\n');
}
