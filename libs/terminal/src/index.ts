export {
  key,
  textKey,
  type InputEvent,
  type KeyEvent,
  type Modifiers,
  type MouseAction,
  type MouseEvent,
  type PasteEvent,
  type UnknownEvent,
} from './input/events';
export {
  createInputDecoder,
  decodeInput,
  type InputDecoder,
  type InputDecoderOptions,
  type Timers,
} from './input/input-decoder';
export { ACTIONS, DEFAULT_BINDINGS, isAction, type Action } from './keys/actions';
export { NAMED_KEYS, keyId, parseKeyId, type KeyIdProblem } from './keys/key-id';
export { createKeymap, defaultKeymap, type Keymap } from './keys/keymap';
export { KEYMAP_ERROR_CODES, keymapFromJson, type KeymapError, type KeymapErrorCode } from './keys/keymap-json';
export { escapeLength, stripAnsi, tokenizeAnsi, type AnsiToken } from './text/ansi-tokens';
export { SgrState } from './text/sgr-state';
export { styledGraphemes, type StyledPiece } from './text/styled-graphemes';
export { compactCount } from './text/compact-count';
export { padRight, truncate } from './text/truncate';
export { certainStandaloneWidth, graphemeWidth, isWidthUncertain, splitGraphemes, visibleWidth } from './text/width';
export { TAB_STOP } from './text/tabs';
export { GrowingTextWrap, type RowDecoration } from './text/growing-wrap';
export { wrapText } from './text/wrap';
export {
  applyStyle,
  bg,
  bold,
  colorParameters,
  createStyler,
  dim,
  fg,
  inverse,
  italic,
  underline,
  type ColorLevel,
  type Styler,
} from './output/sgr';
export {
  ALT_SCREEN_ENTER,
  ALT_SCREEN_LEAVE,
  AUTOWRAP_OFF,
  AUTOWRAP_ON,
  BRACKETED_PASTE_OFF,
  BRACKETED_PASTE_ON,
  CURSOR_HIDE,
  CURSOR_SHOW,
  KITTY_KEYBOARD_POP,
  KITTY_KEYBOARD_PUSH,
  MODIFY_OTHER_KEYS_OFF,
  MODIFY_OTHER_KEYS_ON,
  MOUSE_OFF,
  MOUSE_ON,
  SGR_RESET,
  SYNC_BEGIN,
  SYNC_END,
  enterTerminal,
  restoreTerminal,
  synchronized,
  type TerminalModes,
} from './output/sequences';
export {
  THEME_STYLES,
  darkTheme,
  lightTheme,
  type Color,
  type Style,
  type Theme,
  type ThemeStyleName,
} from './output/theme';
