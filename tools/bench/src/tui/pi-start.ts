import { performance } from 'node:perf_hooks';
import { cpuUsedMs, processTree, readStats, sampleMarked, sumStats } from '../agents/process-stats';
import { SANDBOX_MARKER, type Sandbox } from './sandbox';
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
  /**
   * CPU time used until the startup screen showed: the spawned program and its descendants (npm, its shell, pi-tui),
   * what the machine's load does not inflate as it does the wall time. A `pi-coordinator start` pi-tui began right
   * after it painted is left out: it is part of attaching, and the reading comes after the paint, not at it.
   */
  readonly paintCpuMs: number;
  /**
   * CPU time used until the TUI was attached, by every process of the sandbox (pi-tui, `pi-coordinator start`, the
   * coordinator it leaves running, the session), less what those already running had used before the spawn.
   */
  readonly connectedCpuMs: number;
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
  const marker = `${SANDBOX_MARKER}=${box.env[SANDBOX_MARKER] ?? ''}`;
  const running = await sampleMarked(marker);
  const start = performance.now();
  const tui = await runProgram(kind, command.file, command.args, { ...TERMINAL_SIZE, env: box.env, cwd: box.project });
  return stopAfter(tui, async () => {
    // The spawned tree only, read as soon as the screen shows: a scan of every process would take longer than the
    // program waits before it goes on working.
    const painted = tui.whenShown(STARTUP_FRAME_TEXT).then(async (at) => {
      const tree = await readStats(await processTree(tui.pid));
      return { at, cpu: sumStats(tree.filter((process) => process.name !== 'pi-coordinator.mjs')) };
    });
    const connected = tui.whenShown(FIRST_FRAME_TEXT).then(async (at) => ({ at, cpu: await sampleMarked(marker) }));
    // Both watched from the spawn: a start that connects within one write still shows its startup frame first.
    const [paint, attached] = await Promise.all([painted, connected]);
    return {
      paintMs: paint.at - start,
      connectedMs: attached.at - start,
      paintCpuMs: cpuUsedMs(sumStats([]), paint.cpu),
      connectedCpuMs: cpuUsedMs(running, attached.cpu),
    };
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
