import type { InputEvent } from '../input/events';
import { ACTIONS, DEFAULT_BINDINGS, type Action } from './actions';
import { keyId } from './key-id';

/**
 * The one keybinding table: action → keys. Components ask it whether an event means an action; nothing else
 * checks key names. On-screen hints read `hint(action)`, so a rebound key shows as bound.
 */
export interface Keymap {
  /** The keys bound to an action, as normalized ids, in the order given. */
  keysFor(action: Action): readonly string[];
  /** The first bound key, for hints ('' when the action is unbound). */
  hint(action: Action): string;
  /** True when the event is a key bound to the action. */
  matches(event: InputEvent, action: Action): boolean;
  /** Every action the event is bound to, in table order. */
  actionsFor(event: InputEvent): readonly Action[];
  /** The whole table, for saving or showing. */
  toJson(): Record<Action, string[]>;
}

/** A keymap over already-normalized ids (see `keymapFromJson` for user input). */
export function createKeymap(overrides: Partial<Record<Action, readonly string[]>> = {}): Keymap {
  const table = new Map<Action, readonly string[]>(ACTIONS.map((a) => [a, overrides[a] ?? DEFAULT_BINDINGS[a]]));
  const byKey = new Map<string, Action[]>();
  for (const [action, keys] of table) {
    for (const id of keys) byKey.set(id, [...(byKey.get(id) ?? []), action]);
  }
  const idOf = (event: InputEvent): string | undefined => (event.type === 'key' ? keyId(event) : undefined);
  return {
    keysFor: (action) => table.get(action) ?? [],
    hint: (action) => table.get(action)?.[0] ?? '',
    matches(event, action) {
      const id = idOf(event);
      return id !== undefined && (table.get(action) ?? []).includes(id);
    },
    actionsFor(event) {
      const id = idOf(event);
      return id === undefined ? [] : (byKey.get(id) ?? []);
    },
    toJson: () => Object.fromEntries(ACTIONS.map((a) => [a, [...(table.get(a) ?? [])]])) as Record<Action, string[]>,
  };
}

/** The default bindings. */
export const defaultKeymap: Keymap = createKeymap();
