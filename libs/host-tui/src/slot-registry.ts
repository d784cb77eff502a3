import type { InteractiveComponent, SlotName, TuiComponent } from '@pi/plugin-api';

interface Widget {
  readonly owner: string;
  readonly component: InteractiveComponent;
  failed: boolean;
}

export const SLOT_NAMES: readonly SlotName[] = [
  'header',
  'footer',
  'status',
  'editor.above',
  'editor.below',
  'overlay',
  'welcome',
  'editor',
];

/**
 * Widgets by slot, additive, in registration order. A widget that throws while rendering disappears (and is
 * reported once); its slot and the other widgets stay.
 */
export class SlotRegistry {
  readonly #slots = new Map<SlotName, Widget[]>(SLOT_NAMES.map((name) => [name, []]));
  readonly #onFailure: (owner: string, message: string) => void;
  readonly #loose = new WeakMap<InteractiveComponent, Widget>();

  constructor(onFailure: (owner: string, message: string) => void) {
    this.#onFailure = onFailure;
  }

  add(owner: string, slot: SlotName, component: TuiComponent | InteractiveComponent): () => void {
    const widgets = this.#slots.get(slot);
    if (widgets === undefined) throw new Error(`Unknown slot "${String(slot)}" (slots: ${SLOT_NAMES.join(', ')})`);
    const widget: Widget = { owner, component, failed: false };
    widgets.push(widget);
    return () => {
      const index = widgets.indexOf(widget);
      if (index >= 0) widgets.splice(index, 1);
    };
  }

  /** Every working widget's lines, one after the other, each cut to `width`. */
  render(
    slot: SlotName,
    width: number,
    fit: (line: string, width: number) => string,
    drawn?: (component: InteractiveComponent, lines: readonly string[]) => void,
  ): string[] {
    const lines: string[] = [];
    for (const widget of this.#slots.get(slot) ?? []) {
      const own = this.#rendered(widget, slot, width, fit);
      drawn?.(widget.component, own);
      lines.push(...own);
    }
    return lines;
  }

  /** Every widget of a slot with its owner, in registration order (the exclusive `editor` slot picks one). */
  contributions(slot: SlotName): readonly { owner: string; component: InteractiveComponent }[] {
    return (this.#slots.get(slot) ?? []).map(({ owner, component }) => ({ owner, component }));
  }

  /** The working widgets of a slot that take keys while they show something (overlays). */
  interactive(slot: SlotName): InteractiveComponent[] {
    return (this.#slots.get(slot) ?? []).flatMap((widget) =>
      !widget.failed && widget.component.handleKey !== undefined ? [widget.component] : [],
    );
  }

  /** A widget kept outside the slots (a view shown as an overlay), rendered and guarded like those in them. */
  renderWidget(
    owner: string,
    slot: SlotName,
    component: InteractiveComponent,
    width: number,
    fit: (line: string, width: number) => string,
  ): string[] {
    let widget = this.#loose.get(component);
    if (widget === undefined) {
      widget = { owner, component, failed: false };
      this.#loose.set(component, widget);
    }
    return this.#rendered(widget, slot, width, fit);
  }

  #rendered(widget: Widget, slot: SlotName, width: number, fit: (line: string, width: number) => string): string[] {
    if (widget.failed) return [];
    try {
      return widget.component.render(width).map((line) => fit(line, width));
    } catch (error) {
      widget.failed = true;
      this.#onFailure(widget.owner, `${slot} widget threw: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    }
  }
}
