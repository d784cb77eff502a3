import type { TuiFacilities } from '@pi/plugin-api';

type NoticeLevel = 'info' | 'warning' | 'error';

const NOTICE_MS = 5000;
/** The newest notices shown at once; an older one gives way. */
const MAX_NOTICES = 3;

/** The short lines `notify` shows above the editor, each for five seconds. */
export class NoticeList {
  readonly #entries: Array<{ text: string; level: NoticeLevel; until: number }> = [];
  readonly #now: () => number;
  readonly #changed: () => void;

  constructor(now: () => number, changed: () => void) {
    this.#now = now;
    this.#changed = changed;
  }

  readonly notify: TuiFacilities['notify'] = (text, level = 'info') => {
    this.#entries.push({ text, level, until: this.#now() + NOTICE_MS });
    if (this.#entries.length > MAX_NOTICES) this.#entries.shift();
    this.#changed();
    // The frame after it expires drops it.
    setTimeout(this.#changed, NOTICE_MS + 10).unref?.();
  };

  /** The notices still shown at `time`: the expired ones are dropped. */
  shownAt(time: number): ReadonlyArray<{ text: string; level: NoticeLevel }> {
    while (this.#entries.length > 0 && (this.#entries[0]?.until ?? 0) <= time) this.#entries.shift();
    return this.#entries;
  }
}
