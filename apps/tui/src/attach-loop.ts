import { err, ok, type Result } from 'neverthrow';

/** A TUI host as the loop sees it. */
export interface RunningHost {
  stop(): Promise<void>;
}

export interface AttachLoopOptions<A> {
  /** The attachment to start on (connected). */
  readonly first: A;
  /** Starts a host on an attachment; `switchSession` is what its facets' `session.switchTo` calls (absent: refused). */
  start(
    attachment: A,
    switchSession: ((sessionId: string) => Promise<void>) | undefined,
  ): Promise<Result<RunningHost, string>>;
  /** Attaches to another session by id, connected, or says in one line why not. Absent: this TUI cannot switch. */
  readonly attachTo: ((sessionId: string) => Promise<Result<A, string>>) | undefined;
  /** Closes an attachment (its client). */
  detach(attachment: A): void;
  /** Settles when the user quits (or a signal asks the TUI to). */
  readonly quitting: Promise<void>;
}

/**
 * Attach → run until quit or switch → on switch, re-attach. A switch first connects to the other session; only once
 * it answers does the current host stop and its client close, and a host start on the new one with the same
 * terminal. A failed connection rejects the switch with its one-line reason and leaves the current attachment as
 * it was. One switch at a time.
 */
export async function runAttachLoop<A>(options: AttachLoopOptions<A>): Promise<Result<void, string>> {
  const quit = options.quitting.then(() => ({ quit: true }) as const);
  let current = options.first;
  let done = false;
  for (;;) {
    let handOver: (next: A) => void = () => undefined;
    const switched = new Promise<{ quit: false; next: A }>((resolve) => {
      handOver = (next) => resolve({ quit: false, next });
    });
    let switching = false;
    const attachTo = options.attachTo;
    const switchSession =
      attachTo === undefined
        ? undefined
        : async (sessionId: string) => {
            if (switching) throw new Error('Already switching to another session');
            switching = true;
            const next = await attachTo(sessionId).catch((error: unknown) => err(messageOf(error)));
            if (next.isErr()) {
              switching = false;
              throw new Error(next.error);
            }
            if (done) {
              options.detach(next.value);
              throw new Error('The TUI is quitting');
            }
            handOver(next.value);
          };
    const host = await options.start(current, switchSession);
    if (host.isErr()) {
      options.detach(current);
      return err(host.error);
    }
    const outcome = await Promise.race([quit, switched]);
    if (outcome.quit) done = true;
    await host.value.stop();
    options.detach(current);
    if (outcome.quit) return ok(undefined);
    current = outcome.next;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
