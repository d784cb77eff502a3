import { z } from 'zod';
import { defineView, value } from '@pi/plugin-api';

/** One entry of the list; `id` is its number as the model and the panel show it, never reused. */
export type TodoItem = {
  id: number;
  text: string;
  done: boolean;
};

/** The panel's whole state: the list, and the next number to give. Enough to draw it from nothing. */
export type TodoList = {
  items: TodoItem[];
  nextId: number;
};

/** The longest entry; the model is told so by the tool's schema. */
export const MAX_TODO_TEXT_LENGTH = 500;
/** The most entries a list holds. */
export const MAX_TODO_ITEMS = 100;

const todoItemSchema: z.ZodType<TodoItem> = z.object({
  id: z.number().int().min(1),
  text: z.string().min(1).max(MAX_TODO_TEXT_LENGTH),
  done: z.boolean(),
});

export const todoListSchema: z.ZodType<TodoList> = z.object({
  items: z.array(todoItemSchema).max(MAX_TODO_ITEMS),
  nextId: z.number().int().min(1),
});

export const EMPTY_TODO_LIST: TodoList = { items: [], nextId: 1 };

/**
 * Where the session keeps the list: a value of the plugin's bound storage (kept with the session, synced to
 * clients as the `storage` service's value of @pi/todo).
 */
export const TODO_LIST = value<TodoList>('todo', 'list');

/** The live panel: shows the stored list to every client; clients send nothing back. */
export const TodoPanel = defineView('todo.panel', { state: todoListSchema, message: z.never() });

/** The name the model calls the tool by. */
export const TODO_TOOL_NAME = 'todo';

/** What the model sends: add an entry, mark one done, or remove one. */
export type TodoAction =
  | { action: 'add'; text: string }
  | { action: 'done'; id: number }
  | { action: 'remove'; id: number };

/** The tool result's details: the list after the call, for the transcript's renderer. */
export type TodoDetails = { items: TodoItem[] };
