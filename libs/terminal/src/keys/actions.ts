/**
 * Every action a key can be bound to, with its default keys: the keys people already have in their fingers
 * (docs: TUI.md). App actions are handled by the TUI host, editor actions by the prompt editor; one key may
 * serve one of each (End: line end in the editor, scroll to the bottom in the host — the host decides which
 * wins, e.g. scroll while the transcript is scrolled up).
 */
export const DEFAULT_BINDINGS = {
  // app
  submit: ['enter'],
  newline: ['ctrl+j', 'shift+enter'],
  followUp: ['alt+enter'],
  dequeue: ['alt+up'],
  interrupt: ['escape'],
  clear: ['ctrl+c'],
  quit: ['ctrl+d'],
  historyPrevious: ['up'],
  historyNext: ['down'],
  externalEditor: ['ctrl+g'],
  expandTools: ['ctrl+o'],
  modelPicker: ['ctrl+l'],
  thinkingCycle: ['ctrl+t'],
  pageUp: ['pageup'],
  pageDown: ['pagedown'],
  scrollToEnd: ['end'],
  // editor
  cursorLeft: ['left', 'ctrl+b'],
  cursorRight: ['right', 'ctrl+f'],
  cursorUp: ['up'],
  cursorDown: ['down'],
  cursorWordLeft: ['ctrl+left', 'alt+left', 'alt+b'],
  cursorWordRight: ['ctrl+right', 'alt+right', 'alt+f'],
  cursorLineStart: ['home', 'ctrl+a'],
  cursorLineEnd: ['end', 'ctrl+e'],
  deleteBackward: ['backspace', 'shift+backspace'],
  deleteForward: ['delete'],
  deleteWordBackward: ['ctrl+w', 'alt+backspace', 'ctrl+backspace'],
  deleteWordForward: ['alt+d', 'ctrl+delete', 'alt+delete'],
  deleteToLineEnd: ['ctrl+k'],
  deleteToLineStart: ['ctrl+u'],
  undo: ['ctrl+z', 'ctrl+-'],
  redo: ['ctrl+shift+z', 'alt+z'],
} as const satisfies Record<string, readonly string[]>;

export type Action = keyof typeof DEFAULT_BINDINGS;

export const ACTIONS = Object.keys(DEFAULT_BINDINGS) as readonly Action[];

export function isAction(name: string): name is Action {
  return Object.hasOwn(DEFAULT_BINDINGS, name);
}
