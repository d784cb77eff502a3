import type { InteractiveComponent, TuiTheme } from '@pi/plugin-api';
import type { KeyEvent } from '@pi/terminal';
import { DIALOG_ARMING_MS } from './dialogs';
import type { SlotRegistry } from './slot-registry';
import type { ViewPresenter } from './view-presenter';

interface Target {
  readonly key: string;
  readonly widget: InteractiveComponent;
  readonly dismiss: (() => void) | undefined;
}

/**
 * The `overlay` slot and the views shown as overlays: drawn over the end of the transcript, the newest on top.
 * The newest overlay that takes keys has them all while the last frame showed something of it; what is typed in its first moments still goes
 * to the editor (as with dialogs), and Esc it does not use hides a dismissible view.
 */
export class OverlayLayer {
  readonly #slots: SlotRegistry;
  readonly #views: ViewPresenter;
  readonly #now: () => number;
  #armedKey: string | undefined;
  #shownAt = Number.NEGATIVE_INFINITY;
  /** The overlays the last frame showed something of: only those take keys. */
  readonly #painted = new Set<InteractiveComponent>();

  constructor(slots: SlotRegistry, views: ViewPresenter, now: () => number) {
    this.#slots = slots;
    this.#views = views;
    this.#now = now;
  }

  lines(width: number, theme: TuiTheme, fit: (line: string, width: number) => string): string[] {
    this.#painted.clear();
    const painted = (widget: InteractiveComponent, drawn: readonly string[]) => {
      if (drawn.length > 0) this.#painted.add(widget);
    };
    const lines = this.#slots.render('overlay', width, fit, painted);
    for (const overlay of this.#views.overlays()) {
      const drawn = this.#slots.renderWidget(overlay.owner, 'overlay', overlay.widget, width, fit);
      painted(overlay.widget, drawn);
      if (drawn.length > 0) lines.push(theme.fg('border', '─'.repeat(width)), ...drawn);
    }
    // Painting is when an overlay appears to the user: that is when its arming starts.
    this.#target();
    return lines;
  }

  /** Whether an overlay took the key; `toEditor` receives what was typed before the overlay was armed. */
  handleKey(event: KeyEvent, toEditor: (event: KeyEvent) => void): boolean {
    const target = this.#target();
    if (target === undefined) return false;
    const typed = event.text !== undefined && !event.ctrl && !event.alt;
    if (this.#now() - this.#shownAt < DIALOG_ARMING_MS && (typed || event.name === 'enter')) {
      if (typed) toEditor(event);
      return true;
    }
    const used = target.widget.handleKey?.(event) === true;
    if (!used && event.name === 'escape') target.dismiss?.();
    return true;
  }

  handlePaste(text: string): boolean {
    const target = this.#target();
    if (target === undefined) return false;
    target.widget.handlePaste?.(text);
    return true;
  }

  /** Whether an overlay takes the keys now (the user is being asked something in this terminal). */
  takesKeys(): boolean {
    return this.#candidates().length > 0;
  }

  /** The overlay that takes keys now; a new one is armed from the frame it first showed in. */
  #target(): Target | undefined {
    const target = this.#candidates().at(-1);
    if (target?.key !== this.#armedKey) {
      this.#armedKey = target?.key;
      this.#shownAt = this.#now();
    }
    return target;
  }

  #candidates(): Target[] {
    // Only what the last frame showed takes keys; a frame with no overlay (nearly every one) has nothing to look up.
    if (this.#painted.size === 0) return [];
    return [
      ...this.#slots
        .interactive('overlay')
        .map((widget, index) => ({ key: `slot:${index}`, widget, dismiss: undefined })),
      ...this.#views.overlays().map((overlay) => ({
        key: `view:${overlay.viewId}`,
        widget: overlay.widget,
        dismiss: overlay.dismiss,
      })),
    ].filter((candidate) => candidate.widget.handleKey !== undefined && this.#painted.has(candidate.widget));
  }
}
