import type { MouseAction, MouseEvent } from './events';

/** Turns an xterm button code (SGR 1006 or X10, the 32 offset removed) into a mouse event. */
export function mouseEvent(code: number, x: number, y: number, released: boolean, sequence: string): MouseEvent {
  const low = code & 3;
  const wheel = (code & 64) !== 0;
  const motion = (code & 32) !== 0;
  let action: MouseAction;
  if (wheel) action = low === 0 ? 'wheelUp' : 'wheelDown';
  else if (released || (low === 3 && !motion)) action = 'release';
  else if (motion) action = low === 3 ? 'move' : 'drag';
  else action = 'press';
  return {
    type: 'mouse',
    action,
    button: wheel || low === 3 ? -1 : low,
    x: Math.max(0, x - 1),
    y: Math.max(0, y - 1),
    shift: (code & 4) !== 0,
    alt: (code & 8) !== 0,
    ctrl: (code & 16) !== 0,
    sequence,
  };
}

/** `ESC [ < b ; x ; y M|m` (SGR mouse, mode 1006); the parameters are passed without the `<`. */
export function sgrMouse(parameters: string, final: string, sequence: string): MouseEvent | undefined {
  const [b, x, y] = parameters.split(';').map(Number);
  if (b === undefined || x === undefined || y === undefined || [b, x, y].some(Number.isNaN)) return undefined;
  return mouseEvent(b, x, y, final === 'm', sequence);
}
