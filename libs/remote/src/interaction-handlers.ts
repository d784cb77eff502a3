import { BACKGROUND_CONTEXT, type Context, withAbortSignal } from '@pi/context';
import type { RemoteChannel } from './channel';
import { deliveryContext } from './delivery';
import { quoteForError } from './error-text';
import { RemoteError, toRemoteError } from './errors';
import type { JsonValue } from '@pi/json';
import type { InteractionFrame } from './protocol';
import type { Interaction } from './tokens';
import { parseValue } from './validation';

type AnyHandler = (request: unknown, context: Context) => Promise<unknown>;

/**
 * The consuming side's interaction handlers for one connection. Declaring or removing a handler updates
 * which interactions the providing host may route here.
 */
export class InteractionHandlers {
  readonly #channel: RemoteChannel;
  readonly #handlers = new Map<string, { interaction: Interaction<unknown, unknown>; handler: AnyHandler }>();
  readonly #running = new Map<string, AbortController>();
  #stopServing: (() => void) | undefined;

  constructor(channel: RemoteChannel) {
    this.#channel = channel;
  }

  handle<Request, Response>(
    interaction: Interaction<Request, Response>,
    handler: (request: Request, context: Context) => Promise<Response>,
  ): () => void {
    if (this.#handlers.has(interaction.id)) throw new Error(`A handler for "${interaction.id}" is already registered`);
    const entry = { interaction: interaction as Interaction<unknown, unknown>, handler: handler as AnyHandler };
    this.#handlers.set(interaction.id, entry);
    this.#serve();
    return () => {
      if (this.#handlers.get(interaction.id) !== entry) return;
      this.#handlers.delete(interaction.id);
      this.#serve();
    };
  }

  close(): void {
    this.#handlers.clear();
    this.#serve();
    for (const controller of this.#running.values()) controller.abort();
  }

  #serve(): void {
    const previous = this.#stopServing;
    this.#stopServing =
      this.#handlers.size === 0
        ? undefined
        : this.#channel.serveInteractions([...this.#handlers.keys()], (frame) => this.#receive(frame));
    previous?.();
  }

  #receive(frame: InteractionFrame): void {
    if (frame.kind === 'cancel') {
      this.#running.get(frame.requestId)?.abort(new RemoteError('cancelled', 'The host cancelled the interaction'));
      return;
    }
    const controller = new AbortController();
    this.#running.set(frame.requestId, controller);
    const context = withAbortSignal(controller.signal, deliveryContext(frame.trace) ?? BACKGROUND_CONTEXT);
    void this.#answer(frame, context).finally(() => this.#running.delete(frame.requestId));
  }

  async #answer(frame: Extract<InteractionFrame, { kind: 'request' }>, context: Context): Promise<void> {
    try {
      const entry = this.#handlers.get(frame.interaction);
      if (entry === undefined)
        throw new RemoteError('no_handler', `No handler for ${quoteForError(frame.interaction)}`);
      const request = parseValue(entry.interaction.request, frame.request, '$.request', 'invalid_argument');
      const response = await entry.handler(request, context);
      const json = parseValue(entry.interaction.response, response, '$.response', 'invalid_result') as JsonValue;
      await this.#channel.reply({ requestId: frame.requestId, response: json });
    } catch (error) {
      await this.#channel
        .reply({ requestId: frame.requestId, error: toRemoteError(error).toEnvelope() })
        .catch(() => undefined);
    }
  }
}
