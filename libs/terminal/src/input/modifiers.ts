/**
 * The modifier parameter of CSI sequences (xterm, kitty): 1 + a bit mask, optionally `:event-type` (kitty).
 */
export interface DecodedModifiers {
  readonly ctrl: boolean;
  readonly alt: boolean;
  readonly shift: boolean;
  /** Super, Hyper or Meta: modifiers pi has no names for. Such keys are reported as unknown. */
  readonly other: boolean;
  /** A kitty key-release report; dropped. */
  readonly release: boolean;
}

export function decodeModifiers(parameter: string | undefined): DecodedModifiers {
  const [mask = '1', eventType = '1'] = (parameter ?? '').split(':');
  const bits = Math.max(0, (Number(mask) || 1) - 1);
  return {
    shift: (bits & 1) !== 0,
    alt: (bits & 2) !== 0,
    ctrl: (bits & 4) !== 0,
    other: (bits & (8 | 16 | 32)) !== 0, // caps lock (64) and num lock (128) are ignored
    release: eventType === '3',
  };
}
