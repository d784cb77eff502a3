/**
 * Submitted prompts, newest last, and where the user is while walking them. Walking away from the draft keeps
 * it; walking back past the newest entry returns it. Edits made to a recalled entry are not kept when walking
 * on (as in most shells' default).
 */
export class PromptHistory {
  private entries: string[] = [];
  private index = 0; // entries.length means "at the draft"
  private draft = '';

  constructor(private readonly limit = 100) {}

  /** Records a submitted prompt (a repeat of the newest entry is not recorded twice) and returns to the draft. */
  add(entry: string): void {
    if (entry.trim() !== '' && this.entries[this.entries.length - 1] !== entry) {
      this.entries.push(entry);
      if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    }
    this.reset();
  }

  /** The older entry to show, or undefined at the oldest. `current` is kept as the draft when leaving it. */
  previous(current: string): string | undefined {
    if (this.index === 0) return undefined;
    if (this.index === this.entries.length) this.draft = current;
    this.index--;
    return this.entries[this.index];
  }

  /** The newer entry to show, the draft after the newest, or undefined when already at the draft. */
  next(): string | undefined {
    if (this.index >= this.entries.length) return undefined;
    this.index++;
    return this.index === this.entries.length ? this.draft : this.entries[this.index];
  }

  /** True while an entry (not the draft) is shown. */
  get browsing(): boolean {
    return this.index < this.entries.length;
  }

  /** Back to the draft position without changing the text (after an edit was submitted or cleared). */
  reset(): void {
    this.index = this.entries.length;
    this.draft = '';
  }

  list(): readonly string[] {
    return this.entries;
  }

  /** Replaces the entries (loaded from disk), oldest first. */
  load(entries: readonly string[]): void {
    this.entries = entries.filter((e) => e.trim() !== '').slice(-this.limit);
    this.reset();
  }
}
