import type { CompletionSource } from '@pi/plugin-api';

/** A source and the plugin that added it (named when it fails). */
export interface RegisteredSource {
  readonly owner: string;
  readonly source: CompletionSource;
}

/** The completion sources facets added: per trigger the latest one is in force, and removing it restores the previous. */
export class CompletionRegistry {
  readonly #entries: RegisteredSource[] = [];

  add(owner: string, source: CompletionSource): () => void {
    if ([...source.trigger].length !== 1 || /\s/u.test(source.trigger)) {
      throw new TypeError(
        `The completion source of "${owner}" needs one trigger character that is not whitespace, not "${source.trigger}"`,
      );
    }
    const entry = { owner, source };
    this.#entries.push(entry);
    return () => {
      const index = this.#entries.indexOf(entry);
      if (index >= 0) this.#entries.splice(index, 1);
    };
  }

  /** The sources in force, one per trigger. */
  active(): readonly RegisteredSource[] {
    const byTrigger = new Map<string, RegisteredSource>();
    for (const entry of this.#entries) byTrigger.set(entry.source.trigger, entry);
    return [...byTrigger.values()];
  }
}
