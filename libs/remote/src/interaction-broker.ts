import { randomUUID } from 'node:crypto';
import type { Context } from '@pi/context';
import { RemoteError } from './errors';
import type { JsonValue } from '@pi/json';
import type { InteractionFrame, InteractionReply } from './protocol';
import type { Interaction } from './tokens';
import { parseValue } from './validation';

export const DEFAULT_INTERACTION_TIMEOUT_MS = 5 * 60_000;

interface Handler {
  readonly clientId: string;
  readonly ids: ReadonlySet<string>;
  readonly send: (frame: InteractionFrame) => void;
  readonly order: number;
}

interface Pending {
  readonly clientId: string;
  readonly settle: (reply: InteractionReply | RemoteError) => void;
}

/**
 * Routes a providing host's interaction requests to one eligible connected client and brings its answer
 * back, validated against the contract. Every failure (no eligible client, timeout, disconnect,
 * cancellation, a malformed answer) is a RemoteError the caller turns into a fail-closed result.
 * Eligible client: the one that most recently declared a handler for the interaction.
 */
export class InteractionBroker {
  readonly #handlers = new Map<string, Handler>();
  readonly #pending = new Map<string, Pending>();
  /** What this host may request, for its description: declared tokens (one entry per declaration) and requested ones. */
  readonly #declared = new Map<symbol, Interaction<unknown, unknown>>();
  readonly #requested = new Map<string, Interaction<unknown, unknown>>();
  /** Requests waiting for a client to declare a handler (`waitForHandlerMs`), woken by `serve`. */
  readonly #handlerWaiters = new Set<() => void>();
  #order = 0;

  /**
   * Records that this host may request `interaction`, so its description lists it before the first request.
   * Returns the remover, which takes back exactly this declaration.
   */
  declare<Request, Response>(interaction: Interaction<Request, Response>): () => void {
    const key = Symbol(interaction.id);
    this.#declared.set(key, interaction as Interaction<unknown, unknown>);
    return () => void this.#declared.delete(key);
  }

  /** The interactions this host declared, plus every one it requested since it started; one per id. */
  interactions(): Interaction<unknown, unknown>[] {
    const byId = new Map(this.#requested);
    for (const interaction of this.#declared.values()) byId.set(interaction.id, interaction);
    return [...byId.values()];
  }

  /** A client serves these interaction ids over `send`; a later call for the same client replaces it. */
  serve(clientId: string, ids: readonly string[], send: (frame: InteractionFrame) => void): () => void {
    const handler = { clientId, ids: new Set(ids), send, order: ++this.#order };
    this.#handlers.set(clientId, handler);
    for (const wake of [...this.#handlerWaiters]) wake();
    return () => {
      if (this.#handlers.get(clientId) === handler) this.#handlers.delete(clientId);
    };
  }

  /** The client is gone: it serves nothing more, and what it was asked fails with `disconnected`. */
  disconnect(clientId: string): void {
    this.#handlers.delete(clientId);
    for (const pending of [...this.#pending.values()]) {
      if (pending.clientId === clientId)
        pending.settle(new RemoteError('disconnected', 'The client handling the interaction disconnected'));
    }
  }

  /** An answer counts only from the client the request went to. */
  reply(clientId: string, reply: InteractionReply): void {
    const pending = this.#pending.get(reply.requestId);
    if (pending === undefined || pending.clientId !== clientId) {
      throw new RemoteError('stale_reference', 'No such pending interaction for this client');
    }
    pending.settle(reply);
  }

  eligibleClients(interactionId: string): string[] {
    return [...this.#handlers.values()]
      .filter((handler) => handler.ids.has(interactionId))
      .sort((a, b) => b.order - a.order)
      .map((handler) => handler.clientId);
  }

  async request<Request, Response>(
    interaction: Interaction<Request, Response>,
    request: Request,
    context: Context,
    options: { timeoutMs?: number; waitForHandlerMs?: number; clientId?: string } = {},
  ): Promise<Response> {
    // Every failure is a RemoteError, so callers can fail closed on the code alone.
    if (!this.#requested.has(interaction.id))
      this.#requested.set(interaction.id, interaction as Interaction<unknown, unknown>);
    if (context.abortSignal?.aborted) throw new RemoteError('cancelled', 'The interaction was cancelled');
    const json = parseValue(interaction.request, request, '$.request', 'invalid_argument') as JsonValue;
    const handler =
      options.clientId === undefined
        ? (this.#eligible(interaction.id) ?? (await this.#waitForHandler(interaction.id, context, options)))
        : this.#addressed(interaction.id, options.clientId);
    const requestId = randomUUID();
    const reply = await new Promise<InteractionReply | RemoteError>((resolve) => {
      const timeout = setTimeout(
        () => settle(new RemoteError('timeout', `No answer to "${interaction.id}" in time`)),
        options.timeoutMs ?? DEFAULT_INTERACTION_TIMEOUT_MS,
      );
      const onAbort = () => settle(new RemoteError('cancelled', 'The interaction was cancelled'));
      const settle = (outcome: InteractionReply | RemoteError) => {
        if (!this.#pending.delete(requestId)) return;
        clearTimeout(timeout);
        context.abortSignal?.removeEventListener('abort', onAbort);
        if (outcome instanceof RemoteError && outcome.code !== 'disconnected')
          safeSend(handler, { kind: 'cancel', requestId });
        resolve(outcome);
      };
      this.#pending.set(requestId, { clientId: handler.clientId, settle });
      context.abortSignal?.addEventListener('abort', onAbort, { once: true });
      safeSend(handler, {
        kind: 'request',
        requestId,
        interaction: interaction.id,
        request: json,
        trace: context.telemetryContext.inject(),
      });
    });
    if (reply instanceof RemoteError) throw reply;
    if ('error' in reply) throw clientFailure(reply.error);
    if (!interaction.sensitive)
      return parseValue(interaction.response, reply.response, '$.response', 'invalid_result') as Response;
    try {
      return parseValue(interaction.response, reply.response, '$.response', 'invalid_result') as Response;
    } catch {
      // A validation message may quote the value, and here the value is a secret.
      throw new RemoteError('invalid_result', `The answer to "${interaction.id}" does not match its contract`);
    }
  }

  /** The one client a request is addressed to (the one that asked for it), if it handles the interaction. */
  #addressed(interactionId: string, clientId: string): Handler {
    const handler = this.#handlers.get(clientId);
    if (handler === undefined || !handler.ids.has(interactionId))
      throw new RemoteError('no_handler', `The client that asked does not handle "${interactionId}"`);
    return handler;
  }

  #eligible(interactionId: string): Handler | undefined {
    const [clientId] = this.eligibleClients(interactionId);
    return clientId === undefined ? undefined : this.#handlers.get(clientId);
  }

  /**
   * No client handles the interaction now: fail with `no_handler` at once, or, given `waitForHandlerMs` (an
   * unattended session waiting for a presentation), wait that long for a client to declare a handler.
   */
  #waitForHandler(interactionId: string, context: Context, options: { waitForHandlerMs?: number }): Promise<Handler> {
    const waitMs = options.waitForHandlerMs ?? 0;
    if (waitMs <= 0)
      return Promise.reject(new RemoteError('no_handler', `No connected client handles "${interactionId}"`));
    return new Promise<Handler>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.#handlerWaiters.delete(wake);
        context.abortSignal?.removeEventListener('abort', onAbort);
      };
      const wake = () => {
        const handler = this.#eligible(interactionId);
        if (handler === undefined) return;
        done();
        resolve(handler);
      };
      const onAbort = () => {
        done();
        reject(new RemoteError('cancelled', 'The interaction was cancelled'));
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new RemoteError(
            'timeout',
            `No client handled "${interactionId}" within ${waitMs / 1000} s: the session is unattended`,
          ),
        );
      }, waitMs);
      this.#handlerWaiters.add(wake);
      context.abortSignal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  get pendingCount(): number {
    return this.#pending.size;
  }
}

function safeSend(handler: Handler, frame: InteractionFrame): void {
  try {
    handler.send(frame);
  } catch {
    // A send on a closing connection fails; the disconnect settles the request.
  }
}

/**
 * Codes only this host's transport may produce: a client reporting one for its handler (say `not_authorized`) is
 * not believed. Its own codes (`user_declined`, `cancelled`, ...) pass through.
 */
const HOST_ONLY_CODES = new Set([
  'disconnected',
  'not_authorized',
  'stale_reference',
  'unknown_service',
  'unknown_member',
  'limit_exceeded',
]);

function clientFailure(error: { code: string; message: string }): RemoteError {
  return HOST_ONLY_CODES.has(error.code)
    ? new RemoteError('internal', 'The client could not answer the interaction', { clientCode: error.code })
    : new RemoteError(error.code, error.message);
}
