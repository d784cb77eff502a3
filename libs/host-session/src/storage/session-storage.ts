import { BACKGROUND_CONTEXT } from '@pi/context';
import { checkJson, describeJsonViolation, type JsonValue } from '@pi/json';
import { createRemoteState } from '@pi/remote';
import {
  MAX_LIST_ITEMS,
  MAX_STORED_BYTES,
  isReservedNamespace,
  type BoundStorage,
  type ListAddress,
  type StorageService,
  type StoredValue,
  type ValueAddress,
} from '@pi/plugin-api';
import type { StoredContents } from './storage-file';

/** A plugin of pi's own (the packages pi ships): the only ones that may use the `pi` namespaces. */
export function isBuiltInPlugin(pluginId: string): boolean {
  return pluginId.startsWith('@pi/');
}

/**
 * The session's bound storage: every plugin's values and lists, each under the id of the plugin that wrote it. Values
 * are the `values` cell of the `storage` service (latest wins, every change sent to every client); lists are kept
 * and persisted but never sent. `persist` is told after every change; the host writes the file beside the session.
 */
export class SessionStorage {
  readonly #values = new Map<string, StoredValue>();
  readonly #lists = new Map<string, { plugin: string; namespace: string; key: string; items: JsonValue[] }>();
  readonly #cell = createRemoteState<StoredValue[]>([]);
  readonly #persist: () => void;
  readonly service: StorageService = { values: this.#cell };

  constructor(restored: StoredContents, persist: () => void) {
    for (const entry of restored.values) this.#values.set(slot(entry.plugin, entry), { ...entry });
    for (const entry of restored.lists)
      this.#lists.set(slot(entry.plugin, entry), { ...entry, items: [...entry.items] });
    this.#persist = persist;
    this.#publish();
  }

  /** What the storage file holds now. */
  contents(): StoredContents {
    return { values: [...this.#values.values()], lists: [...this.#lists.values()] };
  }

  /** `context.store` for one plugin: its addresses bound to its id. */
  bind(plugin: string): BoundStorage {
    const check = (address: ValueAddress<JsonValue> | ListAddress<JsonValue>, kind: 'value' | 'list') => {
      if (address?.kind !== kind) throw new TypeError(`Plugin "${plugin}": not a ${kind} address`);
      if (isReservedNamespace(address.namespace) && !isBuiltInPlugin(plugin))
        throw new TypeError(
          `Plugin "${plugin}": storage namespace "${address.namespace}" is reserved for pi's built-in plugins (pi, pi.*); name your own`,
        );
      return slot(plugin, address);
    };
    return Object.freeze({
      get: <T extends JsonValue>(address: ValueAddress<T>) =>
        this.#values.get(check(address, 'value'))?.value as T | undefined,
      set: <T extends JsonValue>(address: ValueAddress<T>, value: T) => {
        const id = check(address, 'value');
        const json = storable(plugin, value);
        this.#values.set(id, { plugin, namespace: address.namespace, key: address.key, value: json });
        this.#changed(true);
      },
      delete: (address: ValueAddress<JsonValue>) => {
        if (this.#values.delete(check(address, 'value'))) this.#changed(true);
      },
      append: <T extends JsonValue>(address: ListAddress<T>, item: T) => {
        const id = check(address, 'list');
        const json = storable(plugin, item);
        const list = this.#lists.get(id) ?? { plugin, namespace: address.namespace, key: address.key, items: [] };
        list.items.push(json);
        if (list.items.length > MAX_LIST_ITEMS) list.items.splice(0, list.items.length - MAX_LIST_ITEMS);
        this.#lists.set(id, list);
        this.#changed(false);
      },
      items: <T extends JsonValue>(address: ListAddress<T>) =>
        Object.freeze([...(this.#lists.get(check(address, 'list'))?.items ?? [])]) as readonly T[],
    });
  }

  #changed(synced: boolean): void {
    if (synced) this.#publish();
    this.#persist();
  }

  #publish(): void {
    this.#cell.set(
      [...this.#values.values()].map((entry) => Object.freeze({ ...entry })),
      BACKGROUND_CONTEXT,
    );
  }
}

function slot(plugin: string, address: { namespace: string; key: string }): string {
  return JSON.stringify([plugin, address.namespace, address.key]);
}

/** A copy of a value that is strict JSON and small enough, or a throw that says why (the plugin's bug). */
function storable(plugin: string, value: unknown): JsonValue {
  const json = checkJson(value, 'value');
  if (json.isErr())
    throw new TypeError(
      `Plugin "${plugin}": a stored value must be strict JSON (${describeJsonViolation(json.error)})`,
    );
  const text = JSON.stringify(value);
  if (Buffer.byteLength(text) > MAX_STORED_BYTES)
    throw new TypeError(`Plugin "${plugin}": a stored value must be at most ${MAX_STORED_BYTES} bytes of JSON`);
  return JSON.parse(text) as JsonValue;
}
