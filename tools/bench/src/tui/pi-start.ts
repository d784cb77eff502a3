import { performance } from 'node:perf_hooks';
import type { Sandbox } from './sandbox';
import { runProgram, type TerminalKind, type TerminalProcess } from './terminal-process';

/** What the footer of pi-tui's startup screen says, from its first frame until the TUI is attached. */
export const STARTUP_FRAME_TEXT = '◌ starting';
/** What the footer of the TUI's first frame says once it is attached. */
export const FIRST_FRAME_TEXT = '● connected';
export const TERMINAL_SIZE = { columns: 100, rows: 30 };

/** One start of pi's TUI, timed from the spawn of its command. */
export interface StartTimes {
  /** → the startup screen on the terminal: the first painted screen. */
  readonly paintMs: number;
  /** → the TUI's first frame, attached to the session (the editor then sends prompts). */
  readonly connectedMs: number;
}

/**
 * Runs `file args` (`npm start`, or the bundled `pi-tui --start`) in the sandbox's project on a terminal, waits for
 * the startup screen and then the attached TUI, and quits it as a closing terminal would. The coordinator and the
 * session it opened keep running, as they do for a user: the next start in the same sandbox finds them.
 */
export async function measureStart(
  kind: TerminalKind,
  command: { readonly file: string; readonly args: readonly string[] },
  box: Sandbox,
): Promise<StartTimes> {
  const start = performance.now();
  const tui = await runProgram(kind, command.file, command.args, { ...TERMINAL_SIZE, env: box.env, cwd: box.project });
  return stopAfter(tui, async () => {
    const painted = tui.whenShown(STARTUP_FRAME_TEXT);
    const connected = tui.whenShown(FIRST_FRAME_TEXT);
    // Both watched from the spawn: a start that connects within one write still shows its startup frame first.
    const [paintedAt, connectedAt] = await Promise.all([painted, connected]);
    return { paintMs: paintedAt - start, connectedMs: connectedAt - start };
  });
}

/** Runs `measure`, then quits the TUI as a closing terminal would (SIGTERM; SIGKILL if it hangs), failed or not. */
export async function stopAfter<T>(tui: TerminalProcess, measure: () => Promise<T>): Promise<T> {
  try {
    return await measure();
  } finally {
    tui.kill('SIGTERM');
    const timer = setTimeout(() => tui.kill('SIGKILL'), 5000);
    await tui.exited;
    clearTimeout(timer);
  }
}
