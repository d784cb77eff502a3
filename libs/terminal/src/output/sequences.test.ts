import { describe, expect, it } from 'vitest';
import {
  ALT_SCREEN_ENTER,
  ALT_SCREEN_LEAVE,
  AUTOWRAP_OFF,
  AUTOWRAP_ON,
  BRACKETED_PASTE_OFF,
  BRACKETED_PASTE_ON,
  CURSOR_SHOW,
  KITTY_KEYBOARD_POP,
  MODIFY_OTHER_KEYS_OFF,
  MOUSE_OFF,
  enterTerminal,
  restoreTerminal,
  synchronized,
} from './sequences';

describe('terminal sequences', () => {
  it('a synchronized frame is wrapped in mode 2026', () => {
    expect(synchronized('frame')).toBe('\x1b[?2026hframe\x1b[?2026l');
  });

  it('enters the alternate screen with bracketed paste by default, and leaves the mouse alone', () => {
    expect(enterTerminal()).toBe(ALT_SCREEN_ENTER + BRACKETED_PASTE_ON);
  });

  it('restoreTerminal undoes everything enterTerminal can turn on', () => {
    const restore = restoreTerminal();
    for (const off of [
      ALT_SCREEN_LEAVE,
      BRACKETED_PASTE_OFF,
      CURSOR_SHOW,
      MOUSE_OFF,
      KITTY_KEYBOARD_POP,
      MODIFY_OTHER_KEYS_OFF,
    ]) {
      expect(restore).toContain(off);
    }
    const everything = enterTerminal({ hideCursor: true, mouse: true, enhancedKeys: true });
    const modes = everything.split('\x1b[?').flatMap((rest) => /^(\d+)h/.exec(rest)?.[1] ?? []);
    expect(modes).toHaveLength(5);
    for (const mode of modes) expect(restore).toContain(`\x1b[?${mode}l`);
  });

  it('turns autowrap back on, which the screen turns off', () => {
    expect(AUTOWRAP_OFF).toBe('\x1b[?7l');
    expect(restoreTerminal()).toContain(AUTOWRAP_ON);
  });

  it('leaves the alternate screen last, after the cursor is visible again', () => {
    const restore = restoreTerminal();
    expect(restore.endsWith(ALT_SCREEN_LEAVE)).toBe(true);
    expect(restore.indexOf(CURSOR_SHOW)).toBeLessThan(restore.indexOf(ALT_SCREEN_LEAVE));
  });
});
