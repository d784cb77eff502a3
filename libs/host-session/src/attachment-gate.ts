type Attach = () => () => void;

/**
 * Holds a plugin set's registrations on the live session (hooks into the harness, event listeners) until the set
 * goes live: a candidate started beside the running set must not intercept or observe the session before it is
 * swapped in, and one that is refused never did. Once the set is replaced, new registrations are ignored.
 */
export class AttachmentGate {
  #state: 'held' | 'open' | 'closed' = 'held';
  readonly #held = new Set<{ attach: Attach; detach?: () => void }>();

  /** Attaches now when open, at `open()` when held, never when closed; the remover undoes whichever happened. */
  attach(attach: Attach): () => void {
    if (this.#state === 'closed') return () => undefined;
    const entry: { attach: Attach; detach?: () => void } = { attach };
    if (this.#state === 'open') entry.detach = attach();
    this.#held.add(entry);
    return () => {
      this.#held.delete(entry);
      entry.detach?.();
      entry.detach = undefined;
    };
  }

  /** The set is live: everything held attaches, in the order it was registered. */
  open(): void {
    if (this.#state !== 'held') return;
    this.#state = 'open';
    for (const entry of this.#held) entry.detach = entry.attach();
  }

  /**
   * The set was replaced (or refused): later registrations are ignored. Earlier ones go with their scopes, or at
   * once with `detach` (hooks: the replaced set must not intercept the session beside the new one).
   */
  close(options: { readonly detach?: boolean } = {}): void {
    this.#state = 'closed';
    if (options.detach !== true) return;
    for (const entry of this.#held) {
      entry.detach?.();
      entry.detach = undefined;
    }
  }
}
