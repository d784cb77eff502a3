/** How long a host may stay silent: a `PING` after `idleMs` without a frame, dead `timeoutMs` after that. */
export interface HeartbeatWindow {
  readonly idleMs: number;
  readonly timeoutMs: number;
}

/** A silent host is declared dead 8 s after its last frame; the server's own keep-alive (30 s) is far slower. */
export const DEFAULT_HEARTBEAT: HeartbeatWindow = { idleMs: 5_000, timeoutMs: 3_000 };

/** The window in force for an option: the default when absent, none when `false`. */
export function heartbeatWindow(option: Partial<HeartbeatWindow> | false | undefined): HeartbeatWindow | false {
  if (option === false) return false;
  const window = { ...DEFAULT_HEARTBEAT, ...option };
  for (const [name, value] of Object.entries(window)) {
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`heartbeat.${name} must be a positive number`);
  }
  return window;
}

/**
 * Watches one socket for a host that has gone silent (stopped, hung, or behind a dead network path), which
 * no close event ever reports. Each frame from the host only stamps the time, so the call path pays no timer
 * work; the timer wakes once per quiet period. After `idleMs` of quiet it sends a ping (tRPC's ws adapter
 * answers `PING` with `PONG`); if no frame at all arrives within `timeoutMs` more, the host is dead.
 */
export class Heartbeat {
  readonly #window: HeartbeatWindow;
  readonly #ping: () => void;
  readonly #dead: () => void;
  #lastHeard = performance.now();
  #pinged = false;
  #stopped = false;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(window: HeartbeatWindow, ping: () => void, dead: () => void) {
    this.#window = window;
    this.#ping = ping;
    this.#dead = dead;
    this.#schedule(window.idleMs);
  }

  /** Any frame from the host proves it alive. */
  heard(): void {
    this.#lastHeard = performance.now();
    if (!this.#pinged || this.#stopped) return;
    this.#pinged = false;
    this.#schedule(this.#window.idleMs);
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #check(): void {
    if (this.#pinged) {
      // Not at once but after the poll phase, so a frame that came while this process itself was blocked is read
      // first: a client's own stall must not look like a silent host.
      setImmediate(() => {
        if (this.#pinged && !this.#stopped) this.#dead();
      });
      return;
    }
    const quiet = performance.now() - this.#lastHeard;
    if (quiet < this.#window.idleMs) return this.#schedule(this.#window.idleMs - quiet);
    this.#pinged = true;
    this.#schedule(this.#window.timeoutMs);
    this.#ping();
  }

  #schedule(delayMs: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#check(), delayMs);
    // A heartbeat alone never keeps a process alive.
    this.#timer.unref?.();
  }
}
