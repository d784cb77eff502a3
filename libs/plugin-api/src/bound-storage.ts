import { z } from 'zod';
import type { JsonValue } from '@pi/json';
import { defineRemoteService, type RemoteState } from '@pi/remote';

/**
 * Bound storage (issue 22): a plugin names what it keeps with typed addresses, `value<T>(namespace, key?)` and
 * `list<T>(namespace, key?)`, usually constants exported from its contract package, and reads and writes them
 * through `context.store`. The host binds every address to the plugin's id when the plugin uses it, so two plugins
 * never share one; namespace `pi` and `pi.*` are reserved for pi's own plugins. Both live with the session (beside
 * its file) and survive a restart. Values are latest-wins and synced to every client (the `storage` service); lists
 * only grow and stay in the session: publish what clients should see through a view.
 */

/** A typed address of one latest-wins value. `T` exists only for the type checker. */
export interface ValueAddress<T extends JsonValue> {
  readonly kind: 'value';
  readonly namespace: string;
  readonly key: string;
  readonly __value?: T;
}

/** A typed address of one append-only list. `T` is the type of its items. */
export interface ListAddress<T extends JsonValue> {
  readonly kind: 'list';
  readonly namespace: string;
  readonly key: string;
  readonly __item?: T;
}

/** The longest namespace and key. */
export const MAX_STORAGE_NAME_LENGTH = 100;
/** The largest value or list item, as JSON text. */
export const MAX_STORED_BYTES = 64 * 1024;
/** The most items one list keeps; a longer list drops its oldest. */
export const MAX_LIST_ITEMS = 10_000;

const NAMESPACE = /^[a-z0-9][a-z0-9._-]*$/;
const KEY = /^[A-Za-z0-9._:/-]*$/;

/** The address of a latest-wins value; throws for a namespace or key pi cannot store. */
export function value<T extends JsonValue>(namespace: string, key = ''): ValueAddress<T> {
  checkName(namespace, key);
  return Object.freeze({ kind: 'value', namespace, key });
}

/** The address of an append-only list; throws for a namespace or key pi cannot store. */
export function list<T extends JsonValue>(namespace: string, key = ''): ListAddress<T> {
  checkName(namespace, key);
  return Object.freeze({ kind: 'list', namespace, key });
}

/** Whether a namespace is pi's own (`pi`, `pi.*`): only pi's built-in plugins may use it. */
export function isReservedNamespace(namespace: string): boolean {
  return namespace === 'pi' || namespace.startsWith('pi.');
}

function checkName(namespace: string, key: string): void {
  if (!NAMESPACE.test(namespace) || namespace.length > MAX_STORAGE_NAME_LENGTH)
    throw new TypeError(
      `Storage namespace "${namespace}" must be lowercase letters, digits, ".", "_" or "-" (at most ${MAX_STORAGE_NAME_LENGTH})`,
    );
  if (!KEY.test(key) || key.length > MAX_STORAGE_NAME_LENGTH)
    throw new TypeError(
      `Storage key "${key}" must be letters, digits, ".", "_", ":", "/" or "-" (at most ${MAX_STORAGE_NAME_LENGTH})`,
    );
}

/**
 * `context.store`: the plugin's bound storage. A write that is not strict JSON or is larger than
 * `MAX_STORED_BYTES`, or an address in a reserved namespace used by a third-party plugin, is a bug and throws.
 */
export interface BoundStorage {
  /** The value at the address, or undefined when none was set. */
  get<T extends JsonValue>(address: ValueAddress<T>): T | undefined;
  /** Replaces the value (latest wins), persists it and sends it to every client. */
  set<T extends JsonValue>(address: ValueAddress<T>, value: T): void;
  /** Forgets the value. */
  delete(address: ValueAddress<JsonValue>): void;
  /** Adds an item at the end of the list and persists it; clients are not sent lists. */
  append<T extends JsonValue>(address: ListAddress<T>, item: T): void;
  /** The list's items, oldest first. */
  items<T extends JsonValue>(address: ListAddress<T>): readonly T[];
}

/** One synced value as clients see it: the plugin it belongs to, its address and its value. */
export interface StoredValue {
  plugin: string;
  namespace: string;
  key: string;
  value: JsonValue;
}

/** The built-in `storage` service every session serves: its plugins' values, synced. */
export interface StorageService {
  readonly values: RemoteState<StoredValue[]>;
}

const jsonValue: z.ZodType<JsonValue> = z.json() as z.ZodType<JsonValue>;

export const Storage = defineRemoteService<StorageService>('storage', {
  methods: {},
  state: {
    values: z.array(
      z.object({
        plugin: z.string().max(214),
        namespace: z.string().max(MAX_STORAGE_NAME_LENGTH),
        key: z.string().max(MAX_STORAGE_NAME_LENGTH),
        value: jsonValue,
      }),
    ),
  },
  events: {},
});
