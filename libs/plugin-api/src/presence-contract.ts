import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService, type RemoteState } from '@pi/remote';

/**
 * Presence (issue 22): who is attached to the session now. One entry per connection, added when it says hello and
 * gone when it closes, or when the host's keep-alive gives up on it (a client that died without closing); never
 * written anywhere, so a restarted session starts with nobody. A client says what it is with `announce`.
 */

/** One attached client. */
export interface PresenceEntry {
  /** The connection's id (its hello's `clientId`). */
  clientId: string;
  /** What kind of client it is (`tui`, `cli`, …); `client` until it announces itself. */
  kind: string;
  /** A name a person recognizes (`alice@laptop`); empty until it announces itself. */
  name: string;
  /** When it attached, in milliseconds since the epoch. */
  since: number;
}

export interface PresenceService {
  /** Every attached client, oldest first. */
  readonly attached: RemoteState<PresenceEntry[]>;
  /** The calling client's kind and name (a later call replaces them). */
  announce(kind: string, name: string, context: Context): Promise<void>;
}

export const MAX_PRESENCE_KIND_LENGTH = 32;
export const MAX_PRESENCE_NAME_LENGTH = 100;

const kind = z
  .string()
  .regex(/^[a-z][a-z0-9-]*$/)
  .max(MAX_PRESENCE_KIND_LENGTH);
const name = z.string().max(MAX_PRESENCE_NAME_LENGTH);

/** The `presence` service every session serves. */
export const Presence = defineRemoteService<PresenceService>('presence', {
  methods: { announce: { args: [kind, name], result: z.void() } },
  state: {
    attached: z.array(
      z.object({ clientId: z.string(), kind: z.string(), name: z.string(), since: z.number().int().min(0) }),
    ),
  },
  events: {},
});
