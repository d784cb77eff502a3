import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { measureImport } from './module-load-bench';
import { FIRST_FRAME_TEXT, TERMINAL_SIZE, measureStart, stopAfter, type StartTimes } from './pi-start';
import { createSandbox } from './sandbox';
import { runNode, type TerminalKind, type TerminalProcess } from './terminal-process';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PI_TUI = join(ROOT, 'apps/tui/bin/pi-tui.mjs');
const PI_SESSION = join(ROOT, 'apps/session/bin/pi-session.mjs');
const BUNDLE_APPS = join(ROOT, 'tools/app-bundle/bin/bundle-apps.mjs');
/** `npm start` itself, as a user types it in a project (npm finds the workspace by --prefix). */
const NPM_START = { file: 'npm', args: ['start', '--prefix', ROOT, '--silent'] };
/** The bundled pi-tui as npm start runs it, without npm and the bundle check before it. */
const PI_TUI_START = { file: process.execPath, args: [join(ROOT, 'dist/apps/tui/pi-tui.mjs'), '--start'] };

/** A start with no coordinator running (`cold`), and the next one in the same place, with it running (`warm`). */
export interface StartPair {
  readonly cold: StartTimes;
  readonly warm: StartTimes;
}

export interface ColdStartRound {
  /** `node -e` printing one line: the floor every process start pays. */
  readonly nodeMs: number;
  /** Importing pi-tui's and pi-session's TypeScript entry modules under tsx, timed inside the process. */
  readonly tuiImportMs: number;
  readonly sessionImportMs: number;
  /** `pi-session` alone, spawn → its "listening on" line. */
  readonly sessionMs: number;
  /** `pi-tui` attaching to that running session, spawn → first frame. */
  readonly attachMs: number;
  /** `npm start` in a fresh project: npm, the bundle check, then the bundled `pi-tui --start`. */
  readonly npmStart: StartPair;
  /** The bundled `pi-tui --start` alone, in a fresh project. */
  readonly piTuiStart: StartPair;
}

/** One of each, every process start in a sandbox of its own; `round` rotates which goes first. */
export async function measureColdStart(kind: TerminalKind, round: number): Promise<ColdStartRound> {
  // The bundles are current before the clock starts: a build happens only after a change, not on a user's start.
  execFileSync(process.execPath, [BUNDLE_APPS], { cwd: ROOT, stdio: 'ignore' });
  const steps = [
    measureNode,
    async () => [
      await measureImport(ROOT, join(ROOT, 'apps/tui/src/run-tui.ts')),
      await measureImport(ROOT, join(ROOT, 'apps/session/src/start-session.ts')),
    ],
    () => measureSessionAndAttach(kind),
    () => measureStartPair(kind, NPM_START),
    () => measureStartPair(kind, PI_TUI_START),
  ];
  const results: unknown[] = steps.map(() => undefined);
  for (let offset = 0; offset < steps.length; offset += 1) {
    const index = (round + offset) % steps.length;
    results[index] = await (steps[index] as () => Promise<unknown>)();
  }
  const [[nodeMs], [tuiImportMs, sessionImportMs], [sessionMs, attachMs], npmStart, piTuiStart] = results as [
    [number],
    [number, number],
    [number, number],
    StartPair,
    StartPair,
  ];
  return { nodeMs, tuiImportMs, sessionImportMs, sessionMs, attachMs, npmStart, piTuiStart };
}

/** Two starts in one fresh sandbox: the first starts the coordinator, the second finds it and its session. */
async function measureStartPair(
  kind: TerminalKind,
  command: { readonly file: string; readonly args: readonly string[] },
): Promise<StartPair> {
  const box = await createSandbox();
  try {
    const cold = await measureStart(kind, command, box);
    const warm = await measureStart(kind, command, box);
    return { cold, warm };
  } finally {
    await box.remove();
  }
}

async function measureNode(): Promise<number[]> {
  const box = await createSandbox();
  try {
    const start = performance.now();
    const child = await runNode('pipe', ['-e', 'process.stdout.write("ready\\n")'], {
      ...TERMINAL_SIZE,
      env: box.env,
      cwd: box.project,
    });
    const shown = await child.whenShown('ready');
    await child.exited;
    return [shown - start];
  } finally {
    await box.remove();
  }
}

async function measureSessionAndAttach(kind: TerminalKind): Promise<number[]> {
  const box = await createSandbox();
  const options = { ...TERMINAL_SIZE, env: box.env, cwd: box.project };
  let session: TerminalProcess | undefined;
  try {
    const sessionStart = performance.now();
    session = await runNode('pipe', [PI_SESSION, '--cwd', box.project], options);
    const listening = await session.whenShown(': listening on ');
    const tuiStart = performance.now();
    const tui = await runNode(kind, [PI_TUI], options);
    const painted = await stopAfter(tui, () => tui.whenShown(FIRST_FRAME_TEXT));
    return [listening - sessionStart, painted - tuiStart];
  } finally {
    session?.kill('SIGTERM');
    await session?.exited;
    await box.remove();
  }
}
