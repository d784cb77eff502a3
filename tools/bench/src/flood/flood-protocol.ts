/** The IPC messages between the flood bench and its flooder process. */

/** How the bench tells its pi server the share per turn: `Infinity` is the host without fairness (as before it). */
export const REQUESTS_PER_TURN_ENV = 'PI_FLOOD_REQUESTS_PER_TURN';

/** bench → flooder */
export type FlooderCommand =
  /**
   * Open a fresh connection to `url`, authenticate it and make the flood ready: `count` subscriptions, in one frame
   * holding them all (`batch`, as a stock tRPC client batches calls made at once) or a frame each (`frames`).
   * Answered with `ready`.
   */
  | { readonly type: 'connect'; readonly url: string; readonly shape: FloodShape; readonly count: number }
  /** Send the flood at once, and report once every request has its first answer; then close the connection. */
  | { readonly type: 'flood' }
  | { readonly type: 'exit' };

export type FloodShape = 'batch' | 'frames';

/** flooder → bench */
export type FlooderReport =
  | { readonly type: 'ready' }
  | {
      readonly type: 'answered';
      /** From the send to the last first answer, in ms. */
      readonly ms: number;
      /** Subscriptions the host started (the rest were refused: `limit_exceeded` past the connection's limit). */
      readonly started: number;
      readonly refused: number;
    };
