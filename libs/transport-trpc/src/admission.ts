import type { ConnectionLimits } from './connection-limits';
import type { ServerSocket } from './server-socket';
import { CLOSE_CODES } from './wire-socket';

/** The close reason of a socket refused because too many others await authentication. */
export const TOO_MANY_UNAUTHENTICATED = 'too many connections awaiting authentication';

/**
 * A host's sockets between their acceptance and their authentication. A peer that never sends its connection params
 * but answers pings was kept forever (500 such peers held 529 file descriptors in a soak); now each has until
 * `authDeadlineMs`, and at most `maxUnauthenticated` wait at once. A socket counts until it is authenticated or
 * closed, so one refused and still closing counts too: the limit bounds the descriptors unauthenticated peers hold.
 */
export class Admission {
  readonly #limits: Pick<ConnectionLimits, 'authDeadlineMs' | 'maxUnauthenticated'>;
  /** Each waiting socket's deadline timer; undefined once its deadline has passed (it is being closed). */
  readonly #waiting = new Map<ServerSocket, NodeJS.Timeout | undefined>();

  constructor(limits: Pick<ConnectionLimits, 'authDeadlineMs' | 'maxUnauthenticated'>) {
    this.#limits = limits;
  }

  /** Sockets accepted and neither authenticated nor closed yet. */
  get waiting(): number {
    return this.#waiting.size;
  }

  /**
   * Takes a new socket, or refuses it (close 1013, then at once, without waiting for the peer's half of the closing
   * handshake) when the limit is reached. `expired` runs if it is still waiting at its deadline.
   */
  admit(socket: ServerSocket, expired: () => void): boolean {
    if (this.#waiting.size >= this.#limits.maxUnauthenticated) {
      socket.close(CLOSE_CODES.tryAgainLater, TOO_MANY_UNAUTHENTICATED);
      socket.terminate();
      return false;
    }
    const timer = setTimeout(() => {
      // After the poll phase, as the client's heartbeat does: params that came while this process was blocked are
      // read (and authenticated) first, so the host's own stall never refuses an honest client.
      setImmediate(() => {
        if (this.#waiting.get(socket) !== timer) return;
        this.#waiting.set(socket, undefined);
        expired();
      });
    }, this.#limits.authDeadlineMs);
    // The socket keeps the process alive, not its deadline.
    timer.unref();
    this.#waiting.set(socket, timer);
    socket.once('close', () => this.#release(socket));
    return true;
  }

  /** The socket proved who it is: it no longer counts, and its deadline is off. */
  authenticated(socket: ServerSocket): void {
    this.#release(socket);
  }

  #release(socket: ServerSocket): void {
    clearTimeout(this.#waiting.get(socket));
    this.#waiting.delete(socket);
  }
}
