import type { Result } from 'neverthrow';
import type { Draft, OwnerMessage, TrailStep } from './draft';
import type { RegistryError } from './registry-error';

/** A synchronous edit of the draft, replayed on every rebuild; returning a Promise is an error. */
export type Contribution<T> = (draft: Draft<T>) => void;

export interface RegistryOptions<T, S> {
  /** Names the registry in warnings and errors. */
  readonly name: string;
  /** Replay position of an owner (manifest order); equal ranks keep registration order, NaN sorts last. */
  ownerRank(owner: string): number;
  /** The host's finalization of the replayed draft: not a contribution, never skipped or reordered. */
  build(entries: ReadonlyMap<string, T>): S;
  /** Value equality for the diff; by default structural, with any two functions equal. */
  equals?(left: T, right: T): boolean;
  /** The copy handed to update and wrap; by default plain objects and arrays deep, the rest by reference. */
  clone?(value: T): T;
}

/** The outcome of one replay: the new state, its diff against the last good replay, and what went wrong. */
export interface Rebuilt<S> {
  state: S;
  added: string[];
  removed: string[];
  changed: string[];
  /** Contributions that threw or returned a Promise; their writes were discarded. */
  errors: OwnerMessage[];
  /** update or wrap of a missing id, which degraded to a no-op. */
  warnings: OwnerMessage[];
  /** For each id, the contributions that shaped it, in replay order. */
  trails: ReadonlyMap<string, readonly TrailStep[]>;
}

export interface ContributionRegistry<T, S> {
  readonly name: string;
  /** Records a contribution; the returned remover removes exactly it. Neither triggers a rebuild. */
  add(owner: string, contribution: Contribution<T>): () => void;
  /** Replays a snapshot of the contributions over a fresh draft in owner-rank order. */
  rebuild(): Result<Rebuilt<S>, RegistryError>;
  /** The last good state; before the first rebuild, the build of an empty draft. */
  current(): S;
  /** Called after each successful rebuild; the returned function unsubscribes. */
  onRebuild(listener: (rebuilt: Rebuilt<S>) => void): () => void;
}
