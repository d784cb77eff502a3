import type { Draft, OwnerMessage, TrailStep } from './draft';

/** An entry of the draft with the contributions that shaped it. */
export interface DraftRecord<T> {
  readonly value: T;
  readonly trail: readonly TrailStep[];
}

/** One contribution's view of the draft: its writes stay only if it is committed. */
export interface DraftTransaction<T> {
  readonly draft: Draft<T>;
  commit(): void;
  rollback(): void;
}

/** The fresh draft of one replay. */
export interface DraftStore<T> {
  entries(): ReadonlyMap<string, DraftRecord<T>>;
  warnings(): readonly OwnerMessage[];
  open(owner: string): DraftTransaction<T>;
}

export function createDraftStore<T>(registryName: string, clone: (value: T) => T): DraftStore<T> {
  let entries = new Map<string, DraftRecord<T>>();
  const warnings: OwnerMessage[] = [];

  function open(owner: string): DraftTransaction<T> {
    let closed = false;
    // Copy-on-first-write: a contribution that only reads or only fails early costs nothing.
    let backup: Map<string, DraftRecord<T>> | undefined;
    const warningsBefore = warnings.length;

    function writable(): Map<string, DraftRecord<T>> {
      if (closed) {
        throw new Error(
          `registry "${registryName}": the draft given to "${owner}" was used after its contribution returned; contributions must be synchronous`,
        );
      }
      backup ??= new Map(entries);
      return entries;
    }

    function readable(): Map<string, DraftRecord<T>> {
      if (closed) writable();
      return entries;
    }

    function replaceExisting(id: string, operation: 'update' | 'wrap', next: (value: T) => T): void {
      const current = writable().get(id);
      if (current === undefined) {
        warnings.push({ owner, message: `registry "${registryName}": ${operation} of missing id "${id}" was ignored` });
        return;
      }
      entries.set(id, { value: next(clone(current.value)), trail: [...current.trail, { owner, operation }] });
    }

    const draft: Draft<T> = {
      set(id, value) {
        writable().set(id, { value, trail: [{ owner, operation: 'set' }] });
      },
      update(id, fn) {
        replaceExisting(id, 'update', (copy) => {
          fn(copy);
          return copy;
        });
      },
      wrap(id, fn) {
        replaceExisting(id, 'wrap', fn);
      },
      delete(id) {
        writable().delete(id);
      },
      has: (id) => readable().has(id),
      ids: () => [...readable().keys()],
    };

    return {
      draft,
      commit() {
        closed = true;
      },
      rollback() {
        closed = true;
        if (backup !== undefined) entries = backup;
        warnings.length = warningsBefore;
      },
    };
  }

  return { entries: () => entries, warnings: () => warnings, open };
}
