import { z } from 'zod';
import { defineRemoteService, type RemoteEvents } from '@pi/remote';

/** `stop`: the coordinator asks this session to stop, as SIGTERM on its own host would (`pi sessions stop ID`). */
export interface SessionControlEvent {
  type: 'stop';
  sessionId: string;
}

/**
 * What a coordinator asks of a session it did not start (one enrolled to run on another host, or one another
 * replica started), which it cannot signal: such a session watches these events on its upstream connection and
 * sees only its own. Served by the coordinator host itself.
 */
export interface SessionControlService {
  readonly events: RemoteEvents<SessionControlEvent>;
}

export const SessionControl = defineRemoteService<SessionControlService>('session-control', {
  methods: {},
  state: {},
  events: { events: z.strictObject({ type: z.literal('stop'), sessionId: z.string().min(1).max(64) }) },
});
