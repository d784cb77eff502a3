export { createE2eFixture, type E2eFixture } from './e2e-fixture';
export { keyBytes, type KeyName } from './keys';
export { afterDialogArming, isAlive, pollUntil } from './polling';
export { createSandbox, type Sandbox } from './sandbox';
export { readScreen, type Cell, type Position, type Screen } from './screen';
export { readSessionConnection, startSession, type SessionProcess } from './session-process';
export { startTmuxTui, TMUX_AVAILABLE, type PaneCapture, type TmuxTui } from './tmux';
export { spawnTui, type PtyExit, type TerminalModes, type TuiPty, type TuiPtyOptions } from './tui-pty';
