import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService } from '@pi/remote';

/** What a session says of itself: how many presentations are attached, and whether it is at work. */
export interface SessionPresenceReport {
  presentations: number;
  /**
   * A run is in progress or prompts wait in its queue. A session that never says (an older one) counts as busy:
   * the coordinator stops only sessions it knows to be idle.
   */
  busy?: boolean;
  /**
   * Where the session serves presentations on the network (`pi-session --listen`: its `wss:` URL, whose host name
   * its certificate names), so the coordinator's gateway can relay a presentation there. Sent only when it listens:
   * a coordinator from before the gateway refuses the field.
   */
  url?: string;
}

/**
 * What a session process tells its coordinator about itself, so the coordinator can tell `active` sessions
 * (someone is attached) from `idle` ones, and stop those idle for long. Served by the coordinator host itself, not
 * by a plugin, and authorized by the caller's session identity: a session reports only for itself.
 */
export interface SessionPresenceService {
  report(presence: SessionPresenceReport, context: Context): Promise<void>;
}

export const SessionPresence = defineRemoteService<SessionPresenceService>('session-presence', {
  methods: {
    report: {
      args: [
        z.strictObject({
          presentations: z.number().int().min(0).max(100_000),
          busy: z.boolean().optional(),
          url: z.string().max(2048).startsWith('wss://', 'a wss:// URL').optional(),
        }),
      ],
      result: z.void(),
    },
  },
  state: {},
  events: {},
});
