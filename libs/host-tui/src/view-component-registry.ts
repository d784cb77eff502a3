import type { JsonValue, ViewComponent } from '@pi/plugin-api';

type AnyViewComponent = ViewComponent<JsonValue, JsonValue>;

interface Contribution {
  readonly owner: string;
  readonly component: AnyViewComponent;
}

/**
 * The components this terminal shows views with, by component name: the latest contribution for a name is used,
 * and removing it falls back to the one before. Listeners hear every change (the presenter re-creates widgets).
 */
export class ViewComponentRegistry {
  readonly #byName = new Map<string, Contribution[]>();
  readonly #listeners = new Set<() => void>();

  add(owner: string, component: AnyViewComponent): () => void {
    const name = component.definition.component;
    const contributions = this.#byName.get(name) ?? [];
    const contribution = { owner, component };
    contributions.push(contribution);
    this.#byName.set(name, contributions);
    this.#changed();
    return () => {
      const index = contributions.indexOf(contribution);
      if (index < 0) return;
      contributions.splice(index, 1);
      this.#changed();
    };
  }

  /** Every component name some facet contributed. */
  names(): string[] {
    return [...this.#byName].flatMap(([name, contributions]) => (contributions.length > 0 ? [name] : []));
  }

  get(name: string): Contribution | undefined {
    return this.#byName.get(name)?.at(-1);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
