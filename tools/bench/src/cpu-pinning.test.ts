import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { onOneCpu } from './cpu-pinning';

function affinity(pid: number): string | undefined {
  try {
    return execFileSync('taskset', ['-cp', String(pid)], { encoding: 'utf8' })
      .split(':')
      .pop()
      ?.trim();
  } catch {
    return undefined;
  }
}

describe('onOneCpu', () => {
  it('runs the work on CPU 0, then gives the process the CPUs it had', async () => {
    const before = affinity(process.pid);
    const { result, pinned } = await onOneCpu([process.pid], async () => affinity(process.pid));
    if (before === undefined) {
      // No taskset here: the work still runs, and the report says it was not pinned.
      expect(pinned).toBe(false);
      return;
    }
    expect(pinned).toBe(true);
    expect(result).toBe('0');
    expect(affinity(process.pid)).toBe(before);
  });

  it('gives the CPUs back when the work fails', async () => {
    const before = affinity(process.pid);
    await expect(
      onOneCpu([process.pid], async () => {
        throw new Error('failed');
      }),
    ).rejects.toThrow('failed');
    expect(affinity(process.pid)).toBe(before);
  });
});
