import { sgrParameters } from './ansi-tokens';

/**
 * The SGR attributes in force at a point in a styled string, kept per attribute slot so it stays small however
 * many sequences went by. Used to re-open a style on the next line after a line break.
 */
type Slot = 'bold' | 'dim' | 'italic' | 'underline' | 'blink' | 'inverse' | 'hidden' | 'strike' | 'overline';
type ColorSlot = 'fg' | 'bg' | 'underlineColor';

const SET: Record<number, Slot> = {
  1: 'bold',
  2: 'dim',
  3: 'italic',
  4: 'underline',
  5: 'blink',
  7: 'inverse',
  8: 'hidden',
  9: 'strike',
  53: 'overline',
};
const RESET: Record<number, readonly Slot[]> = {
  22: ['bold', 'dim'],
  23: ['italic'],
  24: ['underline'],
  25: ['blink'],
  27: ['inverse'],
  28: ['hidden'],
  29: ['strike'],
  55: ['overline'],
};

const SGR_RESET = '\x1b[0m';

export class SgrState {
  private readonly attributes = new Map<Slot | ColorSlot, string>();

  /** Applies one escape sequence; anything but SGR is ignored. */
  apply(escape: string): void {
    const params = sgrParameters(escape);
    if (params === undefined) return;
    const parts = params === '' ? ['0'] : params.split(';');
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i] ?? '';
      const code = Number(part.split(':')[0] || '0');
      if (code === 38 || code === 48 || code === 58) {
        const slot: ColorSlot = code === 38 ? 'fg' : code === 48 ? 'bg' : 'underlineColor';
        if (part.includes(':')) {
          this.attributes.set(slot, part);
        } else {
          const take = parts[i + 1] === '5' ? 2 : parts[i + 1] === '2' ? 4 : 0;
          this.attributes.set(slot, parts.slice(i, i + 1 + take).join(';'));
          i += take;
        }
      } else if (code === 0) this.attributes.clear();
      else if (code === 39) this.attributes.delete('fg');
      else if (code === 49) this.attributes.delete('bg');
      else if (code === 59) this.attributes.delete('underlineColor');
      else if ((code >= 30 && code <= 37) || (code >= 90 && code <= 97)) this.attributes.set('fg', String(code));
      else if ((code >= 40 && code <= 47) || (code >= 100 && code <= 107)) this.attributes.set('bg', String(code));
      else if (SET[code] !== undefined) this.attributes.set(SET[code], part);
      else for (const slot of RESET[code] ?? []) this.attributes.delete(slot);
    }
  }

  /** A state holding the same attributes, changed independently of this one from now on. */
  clone(): SgrState {
    const copy = new SgrState();
    for (const [slot, value] of this.attributes) copy.attributes.set(slot, value);
    return copy;
  }

  /** True when some attribute is in force. */
  get active(): boolean {
    return this.attributes.size > 0;
  }

  /** One SGR sequence that re-establishes the current attributes, or '' when none are in force. */
  open(): string {
    return this.active ? `\x1b[${[...this.attributes.values()].join(';')}m` : '';
  }

  /** SGR_RESET when some attribute is in force, else ''. */
  close(): string {
    return this.active ? SGR_RESET : '';
  }
}
