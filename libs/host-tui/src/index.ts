export { CommandRegistry, type SlashCall } from './command-registry';
export { DIALOG_ARMING_MS } from './dialogs';
export { acceptSessionHost } from './host-compatibility';
export type { ExternalEditor } from './external-editor';
export { FRAME_MS } from './render-scheduler';
export {
  createTerminalScreen,
  type CursorPosition,
  type TerminalIO,
  type TerminalScreen,
  type TerminalScreenOptions,
} from './terminal-screen';
export { tuiTheme } from './theme';
export { ACTION_COMMANDS, startTuiHost, type TuiHost, type TuiHostOptions } from './tui-host';
export type { TuiFacetSource } from './tui-reload';
