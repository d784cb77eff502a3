import { ProviderError } from '@pi/agent';

/**
 * 90 s without a byte (no headers, no chunk) ends the turn. Claude Code's byte-level stream watchdog uses the same
 * 90 s; 60 s would cut a reasoning model whose server streams nothing while it thinks (not every server streams
 * reasoning over chat completions) and a local server still loading a model. The user is not left
 * guessing meanwhile: after a few seconds of silence the run reports that it waits on the model, and clients count
 * the seconds.
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 90_000;
/**
 * The longest idle timeout a configuration may set: five minutes, the header and body timeouts of undici (fetch),
 * which the providers used before their own client and whose bound models.json kept.
 */
export const MAX_IDLE_TIMEOUT_MS = 300_000;

/** For options set in code; models.json is checked by its schema with the same bounds. */
export function checkIdleTimeout(ms: number): void {
  if (!Number.isInteger(ms) || ms < 1 || ms > MAX_IDLE_TIMEOUT_MS)
    throw new RangeError(`idleTimeoutMs must be an integer from 1 to ${MAX_IDLE_TIMEOUT_MS}, got ${ms}`);
}

/**
 * Watches one HTTP exchange for a server that goes quiet: each wait on the server (for the headers, for the
 * next body chunk) may last at most `timeoutMs`. A wait that runs over aborts `signal` — wired into the
 * request, so the connection is closed — and rejects with the stall error, even if the client ignores its signal.
 * Time spent by the consumer between reads is not counted: only waiting on the server is.
 */
export class StallWatch {
  readonly #controller = new AbortController();
  readonly #timeoutMs: number;
  readonly #providerName: string;

  constructor(timeoutMs: number, providerName: string) {
    this.#timeoutMs = timeoutMs;
    this.#providerName = providerName;
  }

  /** Aborts when a wait stalled; give it to the request. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get stalled(): boolean {
    return this.#controller.signal.aborted;
  }

  /**
   * Resolves as `wait` does, unless nothing comes for longer than the timeout. One promise and one timer per wait
   * (it runs for every chunk of a streamed answer): no race against a second promise that would never settle.
   */
  during<T>(wait: Promise<T>): Promise<T> {
    if (this.stalled) return Promise.reject(this.error());
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#controller.abort(this.error());
        reject(this.error());
      }, this.#timeoutMs);
      // If the stall wins, the abandoned wait rejects later (its request was aborted); that is expected and ignored.
      wait.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  error(): ProviderError {
    return new ProviderError(
      'stream_dropped',
      `model stream stalled: no data from ${this.#providerName} for ${formatDuration(this.#timeoutMs)}`,
    );
  }
}

/** `90 s`, `1.5 s`, or `200 ms` below a second (tests configure short timeouts). */
function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}
