import type { AsyncHops } from './async-hops';

/**
 * The IPC messages between the bench process and one server child. The child listens on the address it is
 * given, reports `ready` with the URL clients dial, then answers commands until `exit` (or until the bench
 * process goes away, which closes the IPC channel).
 */
export type ListenOn = { readonly socketPath: string } | { readonly port: 0 };

/** bench → server */
export type ServerCommand =
  /** Collect garbage, then report memory: the idle-connection figure is the difference of two reports. */
  | { readonly type: 'memory' }
  /** Report the CPU time used so far (user + system, µs): per-call CPU holds still on a busy machine. */
  | { readonly type: 'cpu' }
  /**
   * Publish the fan-out value of `round`: send it to every connected client (raw-ws), `set()` the watched cell
   * (pi), or hand it to every subscription (tRPC's `cell` subscription, Cap'n Web's and birpc's callbacks).
   */
  | { readonly type: 'publish'; readonly round: number }
  /**
   * Publish the fan-out values `from` … `from + changes - 1` in batches (a turn of the loop between them), then
   * collect garbage and report memory and the bytes queued for clients (the slow-subscriber row).
   */
  | { readonly type: 'burst'; readonly from: number; readonly changes: number }
  /** Start counting the server's callbacks by kind (`countAsyncHops`), until `hops-stop` reports them. */
  | { readonly type: 'hops-start' }
  | { readonly type: 'hops-stop' }
  | { readonly type: 'exit' };

/** server → bench */
export type ServerReport =
  | { readonly type: 'ready'; readonly url: string }
  | { readonly type: 'memory'; readonly heapUsed: number; readonly external: number; readonly rss: number }
  | { readonly type: 'cpu'; readonly micros: number }
  | { readonly type: 'published'; readonly round: number }
  | { readonly type: 'hops-started' }
  | { readonly type: 'hops'; readonly hops: AsyncHops }
  | {
      readonly type: 'burst-done';
      readonly heapUsed: number;
      readonly external: number;
      readonly rss: number;
      /**
       * The most any one connection has queued on its way out (pi: `outboundStats()`; ws: `bufferedAmount`), or
       * absent when the server cannot tell.
       */
      readonly queuedBytes?: number;
    };

/** The child reads where to listen from its first argument: a socket path, or `tcp` for a loopback port. */
export function listenOnFromArgv(argv: readonly string[]): ListenOn {
  const where = argv[2];
  if (where === undefined) throw new Error('usage: <server>.ts <socket path | tcp>');
  return where === 'tcp' ? { port: 0 } : { socketPath: where };
}
