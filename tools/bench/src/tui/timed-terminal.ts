import { performance } from 'node:perf_hooks';
import { createVirtualTerminal, type VirtualTerminal } from '@pi/host-tui/testing';

/** A virtual terminal that notes when and how much the host writes, and can wait for something to be painted. */
export interface TimedTerminal {
  readonly terminal: VirtualTerminal;
  /** Bytes written so far (UTF-8, escape sequences included). */
  readonly bytes: number;
  /**
   * Resolves with the `performance.now()` of the first write after which `shown()` holds (checked after every
   * write, synchronously: blessed writes a whole frame in one flush). Rejects after `timeoutMs`.
   */
  whenPainted(shown: () => boolean, timeoutMs?: number): Promise<number>;
}

export function createTimedTerminal(columns = 80, rows = 24): TimedTerminal {
  const terminal = createVirtualTerminal(columns, rows);
  let bytes = 0;
  const waiters = new Set<(at: number) => void>();
  terminal.output.on('data', (chunk: Buffer) => {
    const at = performance.now();
    bytes += chunk.length;
    for (const waiter of waiters) waiter(at);
  });
  return {
    terminal,
    get bytes() {
      return bytes;
    },
    whenPainted(shown, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Not painted within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = (at: number) => {
          if (!shown()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(at);
        };
        waiters.add(check);
      });
    },
  };
}
