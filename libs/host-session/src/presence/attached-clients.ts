import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { CLIENT_ID, createRemoteState } from '@pi/remote';
import type { PresenceEntry, PresenceService } from '@pi/plugin-api';

/**
 * Who is attached to the session: the host adds a connection when it says hello and removes it when it closes (a
 * client that died without closing is closed by the keep-alive). Only in memory, so a restart starts empty.
 */
export class AttachedClients {
  readonly #attached = new Map<string, PresenceEntry>();
  readonly #cell = createRemoteState<PresenceEntry[]>([]);
  readonly #now: () => number;
  readonly service: PresenceService;

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.service = {
      attached: this.#cell,
      announce: async (kind, name, context) => this.#announce(kind, name, context),
    };
  }

  connected(clientId: string): void {
    this.#attached.set(clientId, { clientId, kind: 'client', name: '', since: this.#now() });
    this.#publish(BACKGROUND_CONTEXT);
  }

  disconnected(clientId: string): void {
    if (this.#attached.delete(clientId)) this.#publish(BACKGROUND_CONTEXT);
  }

  #announce(kind: string, name: string, context: Context): void {
    const clientId = context.value(CLIENT_ID);
    const entry = clientId === undefined ? undefined : this.#attached.get(clientId);
    if (entry === undefined) return;
    this.#attached.set(entry.clientId, { ...entry, kind, name });
    this.#publish(context);
  }

  #publish(context: Context): void {
    this.#cell.set(
      [...this.#attached.values()].map((entry) => Object.freeze({ ...entry })),
      context,
    );
  }
}
