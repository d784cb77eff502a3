import type { TuiCommand } from '@pi/plugin-api';

interface Registered {
  readonly owner: string;
  readonly command: TuiCommand;
}

/** What a slash line asks for: a command by its slash name, with the rest of the line as its arguments. */
export interface SlashCall {
  readonly command: TuiCommand;
  readonly args: string;
}

/**
 * Every command facets registered, by id and by slash name. A second command with an id or slash name already
 * taken is refused (two plugins fighting over `/model` is an assembly error worth a clear message).
 */
export class CommandRegistry {
  readonly #byId = new Map<string, Registered>();

  register(owner: string, command: TuiCommand): () => void {
    const taken = this.#byId.get(command.id);
    if (taken !== undefined)
      throw new Error(`Command "${command.id}" of "${owner}" is already registered by "${taken.owner}"`);
    const slashOwner = command.slash === undefined ? undefined : this.bySlash(command.slash);
    if (slashOwner !== undefined) {
      throw new Error(`Slash command "/${command.slash}" of "${owner}" is already registered as "${slashOwner.id}"`);
    }
    const entry = { owner, command };
    this.#byId.set(command.id, entry);
    return () => {
      if (this.#byId.get(command.id) === entry) this.#byId.delete(command.id);
    };
  }

  get(id: string): TuiCommand | undefined {
    return this.#byId.get(id)?.command;
  }

  bySlash(name: string): TuiCommand | undefined {
    for (const { command } of this.#byId.values()) if (command.slash === name) return command;
    return undefined;
  }

  /** Commands in registration (manifest) order. */
  list(): readonly TuiCommand[] {
    return [...this.#byId.values()].map((entry) => entry.command);
  }

  /** `/name rest of line` → the command and its arguments; undefined for text that is no known slash command. */
  /**
   * A known `/name [args]`; an unknown bare `/name` (a typo, most likely); or undefined for text to send — which
   * includes an unknown name followed by arguments, such as the offline model's `/tool read {"path": "a"}`.
   */
  parseSlash(line: string): SlashCall | { readonly unknown: string } | undefined {
    const match = /^\/([a-z][\w:-]*)(?:\s+([\s\S]*))?$/i.exec(line.trim());
    if (match === null) return undefined;
    const [, name = '', args = ''] = match;
    const command = this.bySlash(name);
    if (command !== undefined) return { command, args: args.trim() };
    return args.trim() === '' ? { unknown: name } : undefined;
  }
}
