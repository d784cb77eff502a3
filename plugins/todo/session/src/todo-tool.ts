import { z } from 'zod';
import type { AgentTool } from '@pi/plugin-api';
import { MAX_TODO_TEXT_LENGTH, TODO_TOOL_NAME, type TodoAction, type TodoDetails, type TodoList } from '@pi/todo';
import { applyTodo, describeTodos } from './todo-list';

/** One flat object (some providers accept nothing else at the top of a tool schema), checked per action below. */
interface TodoArgs {
  action: 'add' | 'done' | 'remove';
  text?: string;
  id?: number;
}

const todoParameters: z.ZodType<TodoArgs> = z.object({
  action: z.enum(['add', 'done', 'remove']).describe('add an entry, mark one done, or remove one'),
  text: z.string().min(1).max(MAX_TODO_TEXT_LENGTH).optional().describe('add: what to do'),
  id: z.number().int().min(1).optional().describe('done, remove: the entry’s number'),
});

function actionOf(args: TodoArgs): TodoAction | string {
  if (args.action === 'add') return args.text === undefined ? 'add needs a text' : { action: 'add', text: args.text };
  return args.id === undefined ? `${args.action} needs the entry's id` : { action: args.action, id: args.id };
}

/** Where the tool reads and writes the list (the plugin's stored value, shown on the panel). */
export interface TodoStore {
  current(): TodoList;
  replace(list: TodoList): void;
}

/** The `todo` tool: each call changes the stored list, which every attached client sees at once on the panel. */
export function todoTool(list: TodoStore): AgentTool<TodoArgs, TodoDetails> {
  return {
    name: TODO_TOOL_NAME,
    label: 'Todo',
    description:
      'Keep a todo list the user sees live above the conversation: add entries for the steps of a task, mark each ' +
      'done when finished, remove those that no longer apply. Every call answers with the whole list.',
    executionMode: 'sequential',
    parameters: todoParameters,
    async execute(args) {
      const action = actionOf(args);
      const before = list.current();
      const applied = typeof action === 'string' ? undefined : applyTodo(before, action);
      if (applied === undefined || applied.isErr()) {
        const why = applied === undefined ? (action as string) : applied.error;
        return {
          content: [{ type: 'text', text: `${why}.\n${describeTodos(before)}` }],
          details: { items: before.items },
          isError: true,
        };
      }
      list.replace(applied.value);
      return {
        content: [{ type: 'text', text: describeTodos(applied.value) }],
        details: { items: applied.value.items },
      };
    },
  };
}
