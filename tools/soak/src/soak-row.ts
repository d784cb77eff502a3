import type { RowName } from './row-names';
import { unfinished, type RowReport } from './row-report';
import { createSoakHome, type SoakHome } from './soak-home';

/** What a row gets to run with. */
export interface RowContext {
  readonly quick: boolean;
  readonly seed: number;
  /** Aborted when the row passes its time bound: loops stop, and the row's cleanups follow. */
  readonly signal: AbortSignal;
  /** A progress line (stderr). */
  log(line: string): void;
  /** A new private pi home, removed (its programs killed) when the row ends. */
  home(): Promise<SoakHome>;
  /** Runs when the row ends, however it ends; the last registered runs first. */
  defer(cleanup: () => unknown): void;
}

/** One case of the soak. */
export interface SoakRow {
  readonly name: RowName;
  /** What the row does, for the table when it cannot report itself (an error, its time bound). */
  readonly what: string;
  /** How long the row may take, quick or not; past it the row fails. */
  timeLimitMs(quick: boolean): number;
  run(context: RowContext): Promise<RowReport>;
}

/**
 * Runs one row within its time bound and always runs its cleanups. A row that throws, or passes its bound, fails
 * with the reason: a soak row that cannot finish has found something too.
 */
export async function runRow(
  row: SoakRow,
  options: { readonly quick: boolean; readonly seed: number },
  log: (line: string) => void,
): Promise<RowReport> {
  const controller = new AbortController();
  const cleanups: (() => unknown)[] = [];
  const context: RowContext = {
    ...options,
    signal: controller.signal,
    log: (line) => log(`[${row.name}] ${line}`),
    async home() {
      const home = await createSoakHome();
      cleanups.push(() => home.remove());
      return home;
    },
    defer: (cleanup) => void cleanups.push(cleanup),
  };
  const limitMs = row.timeLimitMs(options.quick);
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<RowReport>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(unfinished(row.name, row.what, `did not finish within ${Math.round(limitMs / 1000)} s`));
    }, limitMs);
  });
  const running = row
    .run(context)
    .catch((error: unknown) =>
      unfinished(row.name, row.what, `stopped by an error: ${error instanceof Error ? error.message : String(error)}`),
    );
  try {
    return await Promise.race([running, bound]);
  } finally {
    clearTimeout(timer);
    controller.abort();
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch (error) {
        log(`[${row.name}] cleanup failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}
