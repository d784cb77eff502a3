/**
 * The control sequences pi writes to set up the terminal, and `restoreTerminal()`, which undoes all of them.
 * Each one is ignored by terminals that do not support it.
 */

export const SYNC_BEGIN = '\x1b[?2026h';
export const SYNC_END = '\x1b[?2026l';
export const BRACKETED_PASTE_ON = '\x1b[?2004h';
export const BRACKETED_PASTE_OFF = '\x1b[?2004l';
export const CURSOR_SHOW = '\x1b[?25h';
export const CURSOR_HIDE = '\x1b[?25l';
export const ALT_SCREEN_ENTER = '\x1b[?1049h';
export const ALT_SCREEN_LEAVE = '\x1b[?1049l';
/** Button and drag tracking, SGR coordinates (1006). Off by default: a captured mouse breaks copying text. */
export const MOUSE_ON = '\x1b[?1000h\x1b[?1002h\x1b[?1006h';
export const MOUSE_OFF = '\x1b[?1006l\x1b[?1002l\x1b[?1000l';
/** Kitty keyboard protocol, "disambiguate" flag: Shift+Enter, Ctrl+I vs Tab, a lone Esc without a timeout. */
export const KITTY_KEYBOARD_PUSH = '\x1b[>1u';
export const KITTY_KEYBOARD_POP = '\x1b[<u';
/** xterm modifyOtherKeys level 2: the same distinctions on xterm-like terminals. */
export const MODIFY_OTHER_KEYS_ON = '\x1b[>4;2m';
export const MODIFY_OTHER_KEYS_OFF = '\x1b[>4m';
export const SGR_RESET = '\x1b[0m';
/**
 * Autowrap (DECAWM). A renderer that places every row itself turns it off, so a character drawn wider than it
 * measured (an emoji with a skin tone in tmux) is cut at the right edge instead of spilling onto the next row or
 * scrolling the screen.
 */
export const AUTOWRAP_OFF = '\x1b[?7l';
export const AUTOWRAP_ON = '\x1b[?7h';

/** Wraps one frame's output so supporting terminals show it at once, without tearing. */
export function synchronized(frame: string): string {
  return SYNC_BEGIN + frame + SYNC_END;
}

export interface TerminalModes {
  readonly altScreen?: boolean;
  readonly bracketedPaste?: boolean;
  readonly hideCursor?: boolean;
  readonly mouse?: boolean;
  /** Kitty keyboard protocol and modifyOtherKeys; the decoder reads both. */
  readonly enhancedKeys?: boolean;
}

/** The sequences that turn on the given modes (defaults: alt screen and bracketed paste on, the rest off). */
export function enterTerminal(modes: TerminalModes = {}): string {
  const { altScreen = true, bracketedPaste = true, hideCursor = false, mouse = false, enhancedKeys = false } = modes;
  return (
    (altScreen ? ALT_SCREEN_ENTER : '') +
    (bracketedPaste ? BRACKETED_PASTE_ON : '') +
    (hideCursor ? CURSOR_HIDE : '') +
    (mouse ? MOUSE_ON : '') +
    (enhancedKeys ? KITTY_KEYBOARD_PUSH + MODIFY_OTHER_KEYS_ON : '')
  );
}

/**
 * Undoes everything `enterTerminal` can turn on, whatever was turned on: ends a synchronized frame, turns off
 * mouse tracking, bracketed paste and the key protocols, turns autowrap back on (the screen turns it off), resets
 * styles, shows the cursor, leaves the alternate screen. Write it on every exit path (quit, crash, SIGTERM).
 */
export function restoreTerminal(): string {
  return (
    SYNC_END +
    MOUSE_OFF +
    BRACKETED_PASTE_OFF +
    KITTY_KEYBOARD_POP +
    MODIFY_OTHER_KEYS_OFF +
    AUTOWRAP_ON +
    SGR_RESET +
    CURSOR_SHOW +
    ALT_SCREEN_LEAVE
  );
}
