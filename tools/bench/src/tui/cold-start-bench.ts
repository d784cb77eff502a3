import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { measureImport } from './module-load-bench';
import { createSandbox } from './sandbox';
import { runNode, type TerminalKind, type TerminalProcess } from './terminal-process';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PI_TUI = join(ROOT, 'apps/tui/bin/pi-tui.mjs');
const PI_SESSION = join(ROOT, 'apps/session/bin/pi-session.mjs');
/** What `npm start` runs: the bundle freshness check, then the bundled pi-tui (which starts the bundled pi-session). */
const BUNDLE_APPS = join(ROOT, 'tools/app-bundle/bin/bundle-apps.mjs');
const PI_TUI_BUNDLE = join(ROOT, 'dist/apps/tui/pi-tui.mjs');
/** What the footer of pi-tui's first frame says once it is attached. */
export const FIRST_FRAME_TEXT = '● connected';
const SIZE = { columns: 100, rows: 30 };

export interface ColdStartRound {
  /** `node -e` printing one line: the floor every process start pays. */
  readonly nodeMs: number;
  /** Importing pi-tui's and pi-session's TypeScript entry modules under tsx, timed inside the process. */
  readonly tuiImportMs: number;
  readonly sessionImportMs: number;
  /** `pi-session` alone, spawn → its "listening on" line. */
  readonly sessionMs: number;
  /** `pi-tui` attaching to that running session, spawn → first frame's footer. */
  readonly attachMs: number;
  /** What `npm start` runs in a fresh directory: the bundle check, then the bundled `pi-tui --start`, until the
   *  first frame's footer. The bundles are built once before the rounds (a build happens only after a change). */
  readonly coldMs: number;
}

/** One of each, every process start in a sandbox of its own; `round` rotates which goes first. */
export async function measureColdStart(kind: TerminalKind, round: number): Promise<ColdStartRound> {
  const steps = [
    measureNode,
    async () => [
      await measureImport(ROOT, join(ROOT, 'apps/tui/src/run-tui.ts')),
      await measureImport(ROOT, join(ROOT, 'apps/session/src/start-session.ts')),
    ],
    () => measureSessionAndAttach(kind),
    () => measurePiTuiStart(kind),
  ];
  const results: number[][] = steps.map(() => []);
  for (let offset = 0; offset < steps.length; offset += 1) {
    const index = (round + offset) % steps.length;
    results[index] = await (steps[index] as () => Promise<number[]>)();
  }
  const [[nodeMs], [tuiImportMs, sessionImportMs], [sessionMs, attachMs], [coldMs]] = results as [
    [number],
    [number, number],
    [number, number],
    [number],
  ];
  return { nodeMs, tuiImportMs, sessionImportMs, sessionMs, attachMs, coldMs };
}

async function measureNode(): Promise<number[]> {
  const box = await createSandbox();
  try {
    const start = performance.now();
    const child = await runNode('pipe', ['-e', 'process.stdout.write("ready\\n")'], {
      ...SIZE,
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
  const options = { ...SIZE, env: box.env, cwd: box.project };
  let session: TerminalProcess | undefined;
  try {
    const sessionStart = performance.now();
    session = await runNode('pipe', [PI_SESSION, '--cwd', box.project], options);
    const listening = await session.whenShown(': listening on ');
    const tuiStart = performance.now();
    const tui = await runNode(kind, [PI_TUI], options);
    const painted = await stopAfter(tui, tui.whenShown(FIRST_FRAME_TEXT));
    return [listening - sessionStart, painted - tuiStart];
  } finally {
    session?.kill('SIGTERM');
    await session?.exited;
    await box.remove();
  }
}

let bundlesBuilt = false;

async function measurePiTuiStart(kind: TerminalKind): Promise<number[]> {
  if (!bundlesBuilt) {
    execFileSync(process.execPath, [BUNDLE_APPS], { cwd: ROOT, stdio: 'ignore' });
    bundlesBuilt = true;
  }
  const box = await createSandbox();
  try {
    const start = performance.now();
    execFileSync(process.execPath, [BUNDLE_APPS], { cwd: ROOT, stdio: 'ignore' });
    const tui = await runNode(kind, [PI_TUI_BUNDLE, '--start'], { ...SIZE, env: box.env, cwd: box.project });
    return [(await stopAfter(tui, tui.whenShown(FIRST_FRAME_TEXT))) - start];
  } finally {
    await box.remove();
  }
}

/** Waits for `shown`, then quits pi-tui as a closing terminal would (SIGTERM; SIGKILL if it hangs). */
async function stopAfter(tui: TerminalProcess, shown: Promise<number>): Promise<number> {
  try {
    return await shown;
  } finally {
    tui.kill('SIGTERM');
    const timer = setTimeout(() => tui.kill('SIGKILL'), 5000);
    await tui.exited;
    clearTimeout(timer);
  }
}
