import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService } from '@pi/remote';

/**
 * What a session process tells its coordinator about itself, so the coordinator can tell `active` sessions
 * (someone is attached) from `idle` ones. Served by the coordinator host itself, not by a plugin, and authorized
 * by the caller's session identity: a session reports only for itself.
 */
export interface SessionPresenceService {
  report(presence: { presentations: number }, context: Context): Promise<void>;
}

export const SessionPresence = defineRemoteService<SessionPresenceService>('session-presence', {
  methods: {
    report: { args: [z.strictObject({ presentations: z.number().int().min(0).max(100_000) })], result: z.void() },
  },
  state: {},
  events: {},
});
