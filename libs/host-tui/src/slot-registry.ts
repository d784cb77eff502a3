import type { SlotName, TuiComponent } from '@pi/plugin-api';

interface Widget {
  readonly owner: string;
  readonly component: TuiComponent;
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
];

/**
 * Widgets by slot, additive, in registration order. A widget that throws while rendering disappears (and is
 * reported once); its slot and the other widgets stay.
 */
export class SlotRegistry {
  readonly #slots = new Map<SlotName, Widget[]>(SLOT_NAMES.map((name) => [name, []]));
  readonly #onFailure: (owner: string, message: string) => void;

  constructor(onFailure: (owner: string, message: string) => void) {
    this.#onFailure = onFailure;
  }

  add(owner: string, slot: SlotName, component: TuiComponent): () => void {
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
  render(slot: SlotName, width: number, fit: (line: string, width: number) => string): string[] {
    const lines: string[] = [];
    for (const widget of this.#slots.get(slot) ?? []) {
      if (widget.failed) continue;
      try {
        lines.push(...widget.component.render(width).map((line) => fit(line, width)));
      } catch (error) {
        widget.failed = true;
        this.#onFailure(
          widget.owner,
          `${slot} widget threw: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    }
    return lines;
  }
}
