import { err, type Result } from 'neverthrow';

/** The line saying what pi waits for while it starts: updated per step, cleared when done or failed. */
export interface StartupProgress {
  (step: string): void;
  done(): void;
  /** Clears the line and gives `message` back as the start's error. */
  failed(message: string): Result<never, string>;
}

/** On a terminal only, so a script's output stays clean; the TUI paints where the line was. */
export function startupProgress(output: Pick<NodeJS.WriteStream, 'write' | 'isTTY'>): StartupProgress {
  let shown = false;
  const clear = () => {
    if (shown) output.write('\r\x1b[2K');
    shown = false;
  };
  return Object.assign(
    (step: string) => {
      if (!output.isTTY) return;
      output.write(`\r\x1b[2Kpi: ${step}…`);
      shown = true;
    },
    { done: clear, failed: (message: string) => (clear(), err(message)) },
  );
}
