import { describe, expect, it } from 'vitest';
import { startupProgress } from './startup-progress';

function terminal(isTTY: boolean) {
  let written = '';
  return {
    isTTY,
    write: (chunk: string | Uint8Array) => ((written += String(chunk)), true),
    written: () => written,
  };
}

describe('what pi says while it starts', () => {
  it('one line on a terminal, rewritten per step and cleared when the TUI takes over', () => {
    const output = terminal(true);
    const progress = startupProgress(output);
    progress('starting the coordinator');
    progress('connecting');
    progress.done();
    expect(output.written()).toBe('\r\x1b[2Kpi: starting the coordinator…\r\x1b[2Kpi: connecting…\r\x1b[2K');
  });

  it('clears the line before a failure is said, and returns it as the error', () => {
    const output = terminal(true);
    const progress = startupProgress(output);
    progress('opening the session of this directory');
    expect(progress.failed('The coordinator did not start')._unsafeUnwrapErr()).toBe('The coordinator did not start');
    expect(output.written().endsWith('\r\x1b[2K')).toBe(true);
  });

  it('writes nothing when the output is not a terminal', () => {
    const output = terminal(false);
    const progress = startupProgress(output);
    progress('connecting');
    progress.done();
    expect(output.written()).toBe('');
  });
});
