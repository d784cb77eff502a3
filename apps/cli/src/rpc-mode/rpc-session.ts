import type { PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { RemoteError, toRemoteError, type JsonValue, type WatchFrame } from '@pi/remote';
import type { RpcCommand, RpcId } from './rpc-commands';

/** How many settled run ids are remembered, for answers that come after their run's end. */
const SETTLED_KEPT = 64;

/** Where the mode writes: one JSON object per call, as one line. */
export type RpcWrite = (record: Record<string, unknown>) => void;

/**
 * The commands of `pi --mode rpc` over one session's services, by name through the client (the same calls any
 * client makes): prompts, steers and aborts go to `chat`, `call` to any method, `watch` to any service. The chat's
 * events are written from the start; the run they belong to is followed, so `abort` needs no id.
 */
export class RpcSession {
  readonly #client: PiClient;
  readonly #write: RpcWrite;
  readonly #signal: AbortSignal;
  /** Watched services: whether their state is written too (chat's events always are). */
  readonly #watches = new Map<string, { stop: () => void; state: boolean }>();
  /** The runs started or seen running and not settled yet, latest last. */
  readonly #running = new Set<string>();
  /** The runs this mode's own prompts started and not settled yet: the input's end waits for them. */
  readonly #started = new Set<string>();
  /** Runs seen settled (the latest few): a prompt's answer may come after its run's `settled` event. */
  readonly #settled = new Set<string>();
  #whenIdle: (() => void) | undefined;

  constructor(client: PiClient, write: RpcWrite, signal: AbortSignal) {
    this.#client = client;
    this.#write = write;
    this.#signal = signal;
  }

  /** Starts writing the chat's events; rejects when the session serves no chat. */
  async start(): Promise<void> {
    await this.#watch('chat', false);
  }

  /** Runs one command and writes its response line, success or not. */
  async run(command: RpcCommand): Promise<void> {
    const id: RpcId | null = command.id ?? null;
    try {
      const data = await this.#perform(command);
      this.#write({ type: 'response', id, command: command.type, success: true, data: data ?? null });
    } catch (error) {
      const failure = toRemoteError(error).toEnvelope();
      this.#write({ type: 'response', id, command: command.type, success: false, error: failure });
    }
  }

  /** Resolves once every run this mode's prompts started has settled. */
  runsSettled(): Promise<void> {
    if (this.#started.size === 0) return Promise.resolve();
    return new Promise((resolve) => (this.#whenIdle = resolve));
  }

  #forgetRuns(): void {
    this.#started.clear();
    this.#running.clear();
    this.#whenIdle?.();
  }

  close(): void {
    for (const watch of this.#watches.values()) watch.stop();
    this.#watches.clear();
  }

  async #perform(command: RpcCommand): Promise<unknown> {
    switch (command.type) {
      case 'prompt':
        return this.#send('prompt', command.message);
      case 'steer':
        return this.#send('steer', command.message);
      case 'follow_up':
        return this.#send('followUp', command.message);
      case 'abort': {
        const operationId = command.operationId ?? [...this.#running].at(-1);
        if (operationId === undefined) throw new RemoteError('not_running', 'No run is in progress to abort');
        await this.#call('chat', 'requestAbort', [operationId]);
        return { operationId };
      }
      case 'call':
        return this.#call(command.service, command.method, (command.args ?? []) as JsonValue[]);
      case 'watch':
        await this.#watch(command.service, true);
        return {};
      case 'unwatch':
        this.#unwatch(command.service);
        return {};
      case 'describe':
        return this.#client.describe(this.#context());
    }
  }

  /** A prompt, steer or follow-up; the run it started (if it did) is followed for `abort`. */
  async #send(method: 'prompt' | 'steer' | 'followUp', text: string): Promise<unknown> {
    const response = await this.#call('chat', method, [{ text }]);
    const operationId = (response.value as { operationId?: unknown } | undefined)?.operationId;
    if (typeof operationId === 'string' && !this.#settled.has(operationId)) {
      this.#running.add(operationId);
      this.#started.add(operationId);
    }
    return response.value;
  }

  #call(service: string, method: string, args: readonly JsonValue[]) {
    return this.#client.call(service, method, args, this.#context());
  }

  #context() {
    return withAbortSignal(this.#signal, BACKGROUND_CONTEXT);
  }

  async #watch(service: string, state: boolean): Promise<void> {
    const current = this.#watches.get(service);
    if (current !== undefined) {
      current.state ||= state;
      return;
    }
    const entry: { stop: () => void; state: boolean } = { stop: () => undefined, state };
    this.#watches.set(service, entry);
    try {
      entry.stop = await this.#client.watch(service, {
        next: (frame) => this.#frame(service, frame, entry.state),
        error: (error) => {
          this.#watches.delete(service);
          this.#write({ type: 'watch_ended', service, error });
          // Without the chat's events no run is seen to settle: nothing is waited for any more.
          if (service === 'chat') this.#forgetRuns();
        },
      });
    } catch (error) {
      this.#watches.delete(service);
      throw error;
    }
  }

  #unwatch(service: string): void {
    const watch = this.#watches.get(service);
    if (watch === undefined) throw new RemoteError('not_watched', `${service} is not watched`);
    // The chat's events keep coming: they are the mode's own; only its state stops.
    if (service === 'chat') {
      watch.state = false;
      return;
    }
    watch.stop();
    this.#watches.delete(service);
  }

  #frame(service: string, frame: WatchFrame, state: boolean): void {
    if (frame.kind === 'event') {
      if (service === 'chat') this.#follow(frame.event);
      this.#write({ type: 'event', service, stream: frame.stream, event: frame.event });
      return;
    }
    if (!state) return;
    if (frame.kind === 'snapshot') {
      const cells = Object.fromEntries(Object.entries(frame.state).map(([cell, { value }]) => [cell, value]));
      this.#write({ type: 'snapshot', service, state: cells });
    } else this.#write({ type: 'state', service, cell: frame.cell, value: frame.value });
  }

  /** Runs seen in the chat's events: one settled is no longer abortable. */
  #follow(event: unknown): void {
    const { type, operationId } = event as { type?: unknown; operationId?: unknown };
    if (typeof operationId !== 'string') return;
    if (type !== 'settled') {
      if (type === 'delta' || type === 'final') this.#running.add(operationId);
      return;
    }
    this.#running.delete(operationId);
    this.#settled.add(operationId);
    if (this.#settled.size > SETTLED_KEPT) this.#settled.delete(this.#settled.values().next().value as string);
    if (this.#started.delete(operationId) && this.#started.size === 0) this.#whenIdle?.();
  }
}
