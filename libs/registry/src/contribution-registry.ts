import { err, ok, type Result } from 'neverthrow';
import { cloneValue } from './clone-value';
import { dataEquals } from './data-equals';
import type { OwnerMessage } from './draft';
import { createDraftStore, type DraftRecord, type DraftStore } from './draft-store';
import { diffEntries } from './entries-diff';
import { errorMessage } from './error-message';
import type { RegistryError } from './registry-error';
import type { Contribution, ContributionRegistry, Rebuilt, RegistryOptions } from './registry-types';

interface Registered<T> {
  readonly owner: string;
  readonly contribution: Contribution<T>;
  readonly sequence: number;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    'then' in value &&
    typeof value.then === 'function'
  );
}

export function createRegistry<T, S>(options: RegistryOptions<T, S>): ContributionRegistry<T, S> {
  const { name } = options;
  const clone = options.clone ?? cloneValue;
  const equals = options.equals ?? dataEquals;
  const registered: Registered<T>[] = [];
  const listeners = new Set<(rebuilt: Rebuilt<S>) => void>();
  let nextSequence = 0;
  let rebuilding = false;
  let lastEntries: ReadonlyMap<string, DraftRecord<T>> = new Map();
  let state: { readonly value: S } | undefined;

  function inReplayOrder(snapshot: readonly Registered<T>[]): Registered<T>[] {
    const ranks = new Map<string, number>();
    const rankOf = (owner: string): number => {
      const rank = ranks.get(owner) ?? options.ownerRank(owner);
      ranks.set(owner, rank);
      return Number.isNaN(rank) ? Number.POSITIVE_INFINITY : rank;
    };
    return [...snapshot].sort((left, right) => {
      const [leftRank, rightRank] = [rankOf(left.owner), rankOf(right.owner)];
      if (leftRank !== rightRank) return leftRank < rightRank ? -1 : 1;
      return left.sequence - right.sequence;
    });
  }

  function replay(store: DraftStore<T>, { owner, contribution }: Registered<T>): OwnerMessage | undefined {
    const transaction = store.open(owner);
    try {
      const returned: unknown = contribution(transaction.draft);
      if (isThenable(returned)) {
        transaction.rollback();
        // The discarded promise may still reject; it is already recorded, so keep it from crashing the process.
        returned.then(undefined, () => undefined);
        return {
          owner,
          message: `registry "${name}": contribution returned a Promise; contributions must be synchronous`,
        };
      }
      transaction.commit();
      return undefined;
    } catch (thrown) {
      transaction.rollback();
      return { owner, message: errorMessage(thrown) };
    }
  }

  function publish(rebuilt: Rebuilt<S>): void {
    const failures: unknown[] = [];
    for (const listener of [...listeners]) {
      try {
        listener(rebuilt);
      } catch (thrown) {
        failures.push(thrown);
      }
    }
    if (failures.length > 0) throw new AggregateError(failures, `registry "${name}": an onRebuild listener threw`);
  }

  function rebuildOnce(): Result<Rebuilt<S>, RegistryError> {
    const store = createDraftStore<T>(name, clone);
    const errors: OwnerMessage[] = [];
    for (const item of inReplayOrder(registered)) {
      const failure = replay(store, item);
      if (failure !== undefined) errors.push(failure);
    }
    const entries = store.entries();
    let built: S;
    try {
      built = options.build(new Map([...entries].map(([id, record]) => [id, record.value])));
    } catch (thrown) {
      return err({
        code: 'build_failed',
        registry: name,
        message: `registry "${name}": build failed: ${errorMessage(thrown)}`,
        errors,
      });
    }
    const diff = diffEntries(lastEntries, entries, equals);
    lastEntries = entries;
    state = { value: built };
    const trails = new Map([...entries].map(([id, record]) => [id, record.trail]));
    const rebuilt: Rebuilt<S> = { state: built, ...diff, errors, warnings: [...store.warnings()], trails };
    publish(rebuilt);
    return ok(rebuilt);
  }

  return {
    name,
    add(owner, contribution) {
      const item: Registered<T> = { owner, contribution, sequence: nextSequence++ };
      registered.push(item);
      return () => {
        const index = registered.indexOf(item);
        if (index !== -1) registered.splice(index, 1);
      };
    },
    rebuild() {
      if (rebuilding) {
        const message = `registry "${name}": rebuild was called while it was rebuilding (from a contribution, build or listener)`;
        return err({ code: 'reentrant_rebuild', registry: name, message, errors: [] });
      }
      rebuilding = true;
      try {
        return rebuildOnce();
      } finally {
        rebuilding = false;
      }
    },
    current() {
      state ??= { value: options.build(new Map()) };
      return state.value;
    },
    onRebuild(listener) {
      const subscription = (rebuilt: Rebuilt<S>): void => listener(rebuilt);
      listeners.add(subscription);
      return () => void listeners.delete(subscription);
    },
  };
}
