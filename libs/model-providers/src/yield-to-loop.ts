/** Gives the event loop a turn (I/O, timers, other calls) before a long job's next step. */
export type YieldToLoop = () => Promise<void>;

/**
 * `setImmediate`, not a resolved promise: a microtask would run before any waiting I/O, so another client's call
 * would still wait for the whole job. Between two such steps the loop polls, and that call is served.
 */
export const yieldToLoop: YieldToLoop = () => new Promise((resolve) => setImmediate(resolve));
