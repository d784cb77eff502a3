import type { JsonValue } from '@pi/json';
import type { ToolRenderer } from '@pi/plugin-api';

/** Renderers by tool name: the latest contribution wins; removing it falls back to the one before. */
export class ToolRendererRegistry {
  readonly #stacks = new Map<string, ToolRenderer<JsonValue>[]>();

  add(toolName: string, renderer: ToolRenderer<JsonValue>): () => void {
    const stack = this.#stacks.get(toolName) ?? [];
    stack.push(renderer);
    this.#stacks.set(toolName, stack);
    return () => {
      const index = stack.lastIndexOf(renderer);
      if (index >= 0) stack.splice(index, 1);
    };
  }

  get(toolName: string): ToolRenderer<JsonValue> | undefined {
    return this.#stacks.get(toolName)?.at(-1);
  }
}
