/**
 * Undo and redo over snapshots of any state. Call `record(before, kind)` before each change: consecutive
 * changes of the same kind (typing, deleting with Backspace) coalesce into one step until `breakRun()` (the
 * cursor moved, another kind of edit) or a change of kind.
 */
export class UndoStack<S> {
  private readonly undos: S[] = [];
  private redos: S[] = [];
  private runKind: string | undefined;

  constructor(private readonly limit = 200) {}

  record(before: S, kind?: string): void {
    if (kind !== undefined && kind === this.runKind) return;
    this.undos.push(before);
    if (this.undos.length > this.limit) this.undos.shift();
    this.redos = [];
    this.runKind = kind;
  }

  /** Ends the current run: the next change is a step of its own. */
  breakRun(): void {
    this.runKind = undefined;
  }

  /** The state to go back to, given the current one (which becomes redoable), or undefined. */
  undo(current: S): S | undefined {
    const previous = this.undos.pop();
    if (previous === undefined) return undefined;
    this.redos.push(current);
    this.runKind = undefined;
    return previous;
  }

  redo(current: S): S | undefined {
    const next = this.redos.pop();
    if (next === undefined) return undefined;
    this.undos.push(current);
    this.runKind = undefined;
    return next;
  }

  clear(): void {
    this.undos.length = 0;
    this.redos = [];
    this.runKind = undefined;
  }

  get canUndo(): boolean {
    return this.undos.length > 0;
  }

  get canRedo(): boolean {
    return this.redos.length > 0;
  }
}
