import type { InteractiveComponent, TuiKey } from '@pi/plugin-api';
import { visibleWidth } from '@pi/terminal';
import type { SlotRegistry } from './slot-registry';

/** What the frame draws for the editor: its lines and where the cursor stands in them. */
export interface EditorLines {
  readonly lines: string[];
  readonly cursor: { readonly row: number; readonly col: number };
}

/**
 * The exclusive `editor` slot (issue 22): every TUI plugin may contribute an editor (`slots.add('editor', …)`), and
 * the `editor` setting names the plugin whose editor this terminal uses; none chosen, none of that name, or one that
 * throws: pi's own editor. A throwing editor is reported (the footer counts it, `/diagnostics` lists it) and stays
 * out until it is contributed again.
 */
export class EditorChoice {
  readonly #slots: SlotRegistry;
  readonly #onFailure: (owner: string, message: string) => void;
  readonly #broken = new WeakSet<InteractiveComponent>();
  #chosen = '';
  #missingTold = '';

  constructor(slots: SlotRegistry, onFailure: (owner: string, message: string) => void) {
    this.#slots = slots;
    this.#onFailure = onFailure;
  }

  /** The plugin whose editor to use ('' or unknown: pi's own). */
  choose(owner: string): void {
    this.#chosen = owner;
  }

  /** The owner of the editor in use, or undefined while pi's own is. */
  get active(): string | undefined {
    return this.#active()?.owner;
  }

  /** The contributed editor's lines, or undefined: draw pi's own. */
  render(width: number): EditorLines | undefined {
    const active = this.#active();
    if (active === undefined) return undefined;
    return this.#guard(active, () => {
      const lines = active.component.render(width);
      if (!Array.isArray(lines)) throw new TypeError('render must return lines');
      const last = lines.length === 0 ? '' : String(lines[lines.length - 1]);
      return { lines: lines.map(String), cursor: { row: Math.max(0, lines.length - 1), col: visibleWidth(last) } };
    });
  }

  /** Gives the key to the contributed editor; false when pi's own takes it (none in use, or it just failed). */
  handleKey(key: TuiKey): boolean {
    const active = this.#active();
    if (active === undefined) return false;
    return this.#guard(active, () => active.component.handleKey?.(key) ?? false) ?? false;
  }

  handlePaste(text: string): boolean {
    const active = this.#active();
    if (active?.component.handlePaste === undefined) return false;
    return this.#guard(active, () => (active.component.handlePaste?.(text), true)) ?? false;
  }

  #active(): { owner: string; component: InteractiveComponent } | undefined {
    if (this.#chosen === '') return undefined;
    const contributed = this.#slots
      .contributions('editor')
      .filter(({ owner, component }) => owner === this.#chosen && !this.#broken.has(component))
      .at(-1);
    if (contributed === undefined && this.#missingTold !== this.#chosen) {
      this.#missingTold = this.#chosen;
      this.#onFailure(
        'host',
        `the editor setting names "${this.#chosen}", which contributes no editor: pi's own is used`,
      );
    }
    return contributed;
  }

  #guard<T>(active: { owner: string; component: InteractiveComponent }, run: () => T): T | undefined {
    try {
      return run();
    } catch (error) {
      this.#broken.add(active.component);
      this.#missingTold = this.#chosen;
      const why = error instanceof Error ? error.message : String(error);
      this.#onFailure(active.owner, `editor failed: ${why}; pi's own editor is back`);
      return undefined;
    }
  }
}
