import type { TuiComponent } from '@pi/plugin-api';

interface Block {
  component: TuiComponent;
  /** Lines rendered for `width`, dropped when the block is replaced or the width changes. */
  cache: { width: number; lines: string[] } | undefined;
}

/** What the viewport shows: its lines, and how far it is scrolled up from the bottom. */
export interface TranscriptViewport {
  readonly lines: string[];
  /** Lines below the viewport (0 = following the end). */
  readonly below: number;
}

/**
 * The transcript as keyed blocks (user message, assistant message, tool call, notice), each rendered once per
 * width and cached. A frame renders only the blocks that reach into the viewport, walking up from the end, so
 * appending to a 5,000-entry transcript costs what it costs in an empty one.
 */
export class TranscriptView {
  readonly #blocks = new Map<string, Block>();
  /** Keys in display order; walked from the end without copying. */
  readonly #order: string[] = [];
  /** Lines scrolled up from the bottom; 0 follows new output. */
  #offset = 0;
  #onFailure: (key: string, message: string) => void;

  constructor(onFailure: (key: string, message: string) => void = () => undefined) {
    this.#onFailure = onFailure;
  }

  get size(): number {
    return this.#blocks.size;
  }

  get following(): boolean {
    return this.#offset === 0;
  }

  upsert(key: string, component: TuiComponent): void {
    const block = this.#blocks.get(key);
    if (block === undefined) {
      this.#blocks.set(key, { component, cache: undefined });
      this.#order.push(key);
    } else {
      block.component = component;
      block.cache = undefined;
    }
  }

  remove(key: string): void {
    if (!this.#blocks.delete(key)) return;
    this.#order.splice(this.#order.lastIndexOf(key), 1);
  }

  clear(): void {
    this.#blocks.clear();
    this.#order.length = 0;
    this.#offset = 0;
  }

  /** Forgets every cached rendering (the expanded state or the theme changed). */
  invalidate(): void {
    for (const block of this.#blocks.values()) block.cache = undefined;
  }

  /** Scrolls by `lines` (positive = up, into history); never past the top or below the end. */
  scroll(lines: number, height: number, width: number): void {
    const limit = Math.max(0, this.#linesAbove(width, this.#offset + Math.max(lines, 0) + height) - height);
    this.#offset = Math.min(Math.max(0, this.#offset + lines), limit);
  }

  /** Whether the viewport shows the first line of what is held. */
  atTop(height: number, width: number): boolean {
    return this.#linesAbove(width, this.#offset + height + 1) <= this.#offset + height;
  }

  scrollToEnd(): void {
    this.#offset = 0;
  }

  viewport(width: number, height: number): TranscriptViewport {
    // Walked from the end, taking only the lines shown: no copy of the blocks' lines a frame.
    const shown: string[] = [];
    let skip = this.#offset;
    for (let index = this.#order.length - 1; index >= 0 && shown.length < height; index--) {
      const lines = this.#render(this.#order[index] as string, width);
      if (skip >= lines.length) {
        skip -= lines.length;
        continue;
      }
      for (let line = lines.length - 1 - skip; line >= 0 && shown.length < height; line--)
        shown.push(lines[line] as string);
      skip = 0;
    }
    shown.reverse();
    return { lines: shown, below: this.#offset };
  }

  /** How many lines exist, counting from the end, up to `atMost` (stops rendering once it has enough). */
  #linesAbove(width: number, atMost: number): number {
    let count = 0;
    for (let index = this.#order.length - 1; index >= 0; index--) {
      count += this.#render(this.#order[index] as string, width).length;
      if (count >= atMost) return count;
    }
    return count;
  }

  #render(key: string, width: number): string[] {
    const block = this.#blocks.get(key);
    if (block === undefined) return [];
    if (block.cache?.width === width) return block.cache.lines;
    let lines: string[];
    try {
      lines = block.component.render(width);
    } catch (error) {
      this.#onFailure(key, error instanceof Error ? error.message : String(error));
      lines = ['[this entry could not be rendered]'];
    }
    block.cache = { width, lines };
    return lines;
  }
}
