import { spawn } from 'node:child_process';
import { readProcessStatSync } from '@pi/connection-files/process-stat';
import { eventually } from '@pi/test-support';
import { describe, expect, it } from 'vitest';
import { isProcessAlive, processStartTime, sendSignal } from './process-signals';

describe('process liveness', () => {
  it('tells this process alive, and a pid with another start time (a reused pid) not', () => {
    const startTime = processStartTime(process.pid);
    expect(isProcessAlive(process.pid, startTime)).toBe(true);
    if (startTime !== undefined) expect(isProcessAlive(process.pid, `${startTime}0`)).toBe(false);
  });

  it('tells an exited child (even one not reaped yet) not alive, and signals to it fail', async () => {
    const child = spawn(process.execPath, ['-e', 'process.exit(0)'], { stdio: 'ignore' });
    const pid = child.pid ?? -1;
    await new Promise((resolve) => child.once('exit', resolve));
    expect(isProcessAlive(pid)).toBe(false);
    expect(sendSignal(pid, 'SIGTERM')).toBe(false);
  });

  it.runIf(process.platform === 'linux')('reads the start time past a command name holding ") ("', async () => {
    const child = spawn(process.execPath, ['-e', "process.title = 'a) (b'; setInterval(() => {}, 1000)"], {
      stdio: 'ignore',
    });
    const pid = child.pid ?? -1;
    try {
      await eventually(() => readProcessStatSync(pid)?.name === 'a) (b');
      const before = processStartTime(pid);
      expect(before).toMatch(/^\d+$/);
      expect(isProcessAlive(pid, before)).toBe(true);
    } finally {
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
