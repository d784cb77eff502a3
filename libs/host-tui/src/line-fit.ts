import { truncate } from '@pi/terminal';

/**
 * Cuts a frame's lines to the screen's width, remembering each cut for the next frame: most rows of a frame are the
 * strings the last frame had (cached transcript blocks, the rules, a footer made again with the same text), and a
 * lookup costs less than measuring a line again. What a frame did not use is forgotten after it.
 */
export class LineFit {
  readonly #cut: (line: string, width: number) => string;
  #width = -1;
  #current = new Map<string, string>();
  #previous = new Map<string, string>();

  constructor(cut: (line: string, width: number) => string = truncate) {
    this.#cut = cut;
  }

  /** Starts a frame `width` columns wide: the lines the last frame cut stay known, older ones are forgotten. */
  nextFrame(width: number): void {
    if (width !== this.#width) {
      this.#width = width;
      this.#current.clear();
    }
    const previous = this.#previous;
    previous.clear();
    this.#previous = this.#current;
    this.#current = previous;
  }

  /** `truncate(line, width)`; remembered when `width` is the frame's. */
  readonly fit = (line: string, width: number): string => {
    if (width !== this.#width) return this.#cut(line, width);
    let fitted = this.#current.get(line);
    if (fitted === undefined) {
      fitted = this.#previous.get(line) ?? this.#cut(line, width);
      this.#current.set(line, fitted);
    }
    return fitted;
  };
}
