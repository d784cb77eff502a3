/** Limits of one connection's outbound path (see docs/decisions.md, "Flow control and fan-out"). */
export interface FlowControlLimits {
  /** Above this many bytes buffered in the socket, watch frames are held back on the host instead of written. */
  readonly highWaterBytes: number;
  /** Above this many bytes of held watch frames on one connection, state changes coalesce and events overflow. */
  readonly maxBacklogBytes: number;
  /** Events one watch holds while its connection does not drain; one more is an overflow (a `seq` gap). */
  readonly maxBacklogEvents: number;
}

export const DEFAULT_FLOW_CONTROL: FlowControlLimits = {
  highWaterBytes: 1024 * 1024,
  maxBacklogBytes: 1024 * 1024,
  maxBacklogEvents: 1024,
};

/** What one connection holds on its way out, for `RpcHost.outboundStats()`. */
export interface OutboundStats {
  readonly clientId: string | undefined;
  /** Bytes written to the socket that it has not sent yet (`bufferedAmount`). */
  readonly bufferedBytes: number;
  /** Bytes of watch frames held back on the host (an estimate: their JSON length). */
  readonly backlogBytes: number;
  /** `bufferedBytes + backlogBytes`: what the host holds for this connection. */
  readonly queuedBytes: number;
  /** Times a watch of this connection dropped its held events and marked a gap. */
  readonly overflows: number;
}

/** The part of a socket the pressure reads: `ws` WebSockets and loopback sockets both report it. */
export interface BufferingSocket {
  readonly bufferedAmount?: number;
}

/** How often a held stream looks at the socket again. `ws` has no public drain event on its WebSocket. */
const DRAIN_POLL_MS = 10;

/**
 * One connection's outbound pressure: whether its socket is draining, the bytes its watches hold back, and a
 * wait for the socket to drain. Shared by every stream of the connection.
 */
export class OutboundPressure {
  readonly limits: FlowControlLimits;
  clientId: string | undefined;
  backlogBytes = 0;
  overflows = 0;
  readonly #socket: BufferingSocket;
  readonly #drainWaiters = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;

  constructor(socket: BufferingSocket, limits: FlowControlLimits) {
    this.#socket = socket;
    this.limits = limits;
  }

  /** The socket holds more than the high-water mark: frames wait on the host, where they can be coalesced. */
  get congested(): boolean {
    return (this.#socket.bufferedAmount ?? 0) > this.limits.highWaterBytes;
  }

  /** Held frames should coalesce: the socket is not draining, or the connection already holds too much. */
  get underPressure(): boolean {
    return this.backlogBytes > this.limits.maxBacklogBytes || this.congested;
  }

  /** Calls `resume` once the socket is below its high-water mark; returns a cancel. */
  whenDrained(resume: () => void): () => void {
    this.#drainWaiters.add(resume);
    this.#timer ??= setInterval(() => this.#poll(), DRAIN_POLL_MS).unref();
    return () => {
      this.#drainWaiters.delete(resume);
      this.#stopIfIdle();
    };
  }

  stats(): OutboundStats {
    const bufferedBytes = this.#socket.bufferedAmount ?? 0;
    return {
      clientId: this.clientId,
      bufferedBytes,
      backlogBytes: this.backlogBytes,
      queuedBytes: bufferedBytes + this.backlogBytes,
      overflows: this.overflows,
    };
  }

  /** The connection ended: no stream waits any longer. */
  close(): void {
    this.#drainWaiters.clear();
    this.#stopIfIdle();
  }

  #poll(): void {
    if (this.congested) return;
    const waiters = [...this.#drainWaiters];
    this.#drainWaiters.clear();
    this.#stopIfIdle();
    for (const resume of waiters) resume();
  }

  #stopIfIdle(): void {
    if (this.#drainWaiters.size > 0 || this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
