/** What a lane stops reading from while its requests wait: the connection's socket. */
export interface PausableSource {
  pause?(): void;
  resume?(): void;
}

/** What the scheduler serves: a lane with requests waiting. */
interface TurnTaker {
  takeTurn(): void;
}

/**
 * Turn-taking between the connections of one host. A frame read from a socket is handled at once, in the same turn
 * of the event loop, so one connection that sent 10,000 requests at once kept every other connection waiting until
 * all 10,000 were started. Here each connection has a lane: it starts up to `requestsPerTurn` requests in a turn; its
 * next ones wait, and the scheduler takes a turn of its own (`setImmediate`, after the poll phase, so the other
 * sockets are read first) in which every lane with waiting requests starts its share again, in round-robin order.
 *
 * What it costs when one connection is busy: nothing per request beyond two comparisons, and one `setImmediate` per
 * `requestsPerTurn` requests (the lane that uses up its share ends the turn, so a connection whose requests come one
 * event-loop turn apart never waits); only requests past the share within one turn wait for the next.
 */
export class FairScheduler {
  readonly share: number;
  /** Lanes with waiting requests, in the order their next turn comes. */
  readonly #waiting = new Set<TurnTaker>();
  #armed = false;
  /** The scheduler's turn: a lane's count of requests started belongs to one of them. */
  turn = 0;

  constructor(requestsPerTurn: number) {
    this.share = requestsPerTurn;
  }

  /** A connection's lane: `start` begins one of its requests, and must not throw. */
  lane<T>(start: (request: T) => void, source: PausableSource = {}): RequestLane<T> {
    return new RequestLane(this, start, source);
  }

  /** A lane has requests waiting: it is served in the next turn, after every lane already waiting. */
  wait(lane: TurnTaker): void {
    this.#waiting.add(lane);
    this.endTurnSoon();
  }

  /**
   * Ends the current turn after this poll phase. Also called when a lane uses up its share, so that requests of a
   * later turn of the event loop (a client calling one call at a time) find a new turn and start at once, instead
   * of one call in every `share` waiting for the scheduler's turn.
   */
  endTurnSoon(): void {
    if (this.#armed) return;
    this.#armed = true;
    setImmediate(this.#takeTurn);
  }

  /** The lane is gone (its socket closed): it takes no more turns. */
  forget(lane: TurnTaker): void {
    this.#waiting.delete(lane);
  }

  readonly #takeTurn = (): void => {
    this.#armed = false;
    this.turn += 1;
    const lanes = [...this.#waiting];
    this.#waiting.clear();
    // A lane that still has waiting requests after its share queues itself again, behind the others.
    for (const lane of lanes) lane.takeTurn();
  };
}

/** Requests held before compacting the queue's consumed head. */
const COMPACT_AFTER = 1024;

/** One connection's requests, started in order: at once while the connection has its share of the turn left. */
export class RequestLane<T> {
  readonly #scheduler: FairScheduler;
  readonly #start: (request: T) => void;
  readonly #source: PausableSource;
  #queue: Array<T | undefined> = [];
  #head = 0;
  /** The scheduler's turn `#started` counts for. */
  #turn = -1;
  #started = 0;
  #paused = false;
  #closed = false;

  constructor(scheduler: FairScheduler, start: (request: T) => void, source: PausableSource) {
    this.#scheduler = scheduler;
    this.#start = start;
    this.#source = source;
  }

  /** Requests waiting for a turn. */
  get waiting(): number {
    return this.#queue.length - this.#head;
  }

  /** Starts the request now if nothing of this connection waits and its share of the turn is not used up. */
  submit(request: T): void {
    if (this.#closed) return;
    const scheduler = this.#scheduler;
    if (this.#turn !== scheduler.turn) {
      this.#turn = scheduler.turn;
      this.#started = 0;
    }
    if (this.#head === this.#queue.length && this.#started < scheduler.share) {
      this.#started += 1;
      if (this.#started === scheduler.share) scheduler.endTurnSoon();
      this.#start(request);
      return;
    }
    this.#queue.push(request);
    if (this.waiting === 1) scheduler.wait(this);
    // More than a turn's worth waits: read no more of this connection until it is caught up, so that what a flood
    // leaves waiting is bounded by what one read brought in.
    if (!this.#paused && this.waiting >= scheduler.share) {
      this.#paused = true;
      this.#source.pause?.();
    }
  }

  /** The scheduler's turn for this lane: start up to a share of the waiting requests. */
  takeTurn(): void {
    if (this.#closed) return;
    const scheduler = this.#scheduler;
    this.#turn = scheduler.turn;
    this.#started = 0;
    while (this.#started < scheduler.share && this.#head < this.#queue.length) {
      const request = this.#queue[this.#head] as T;
      this.#queue[this.#head] = undefined;
      this.#head += 1;
      this.#started += 1;
      this.#start(request);
    }
    if (this.#head < this.#queue.length) {
      if (this.#head >= COMPACT_AFTER) this.#compact();
      scheduler.wait(this);
      return;
    }
    this.#queue = [];
    this.#head = 0;
    if (!this.#paused) return;
    this.#paused = false;
    this.#source.resume?.();
  }

  /** The connection ended: its waiting requests are dropped, and nothing more is started. */
  close(): void {
    this.#closed = true;
    this.#queue = [];
    this.#head = 0;
    this.#scheduler.forget(this);
  }

  #compact(): void {
    this.#queue = this.#queue.slice(this.#head);
    this.#head = 0;
  }
}
