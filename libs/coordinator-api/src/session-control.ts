import { z } from 'zod';
import { defineRemoteService, type RemoteEvents, type RemoteState } from '@pi/remote';

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
  /**
   * Where the coordinator's replicas serve (`wss:` URLs, the one connected to among them), as the coordinator knows
   * them: a session adds them to the addresses it reconnects to, so one enrolled with one URL fails over too.
   */
  readonly state: RemoteState<SessionControlState>;
}

export interface SessionControlState {
  replicas: string[];
}

export const SessionControl = defineRemoteService<SessionControlService>('session-control', {
  methods: {},
  state: {
    state: z.strictObject({
      replicas: z
        .array(
          z
            .string()
            .max(2048)
            .regex(/^wss?:\/\//),
        )
        .max(64),
    }),
  },
  events: { events: z.strictObject({ type: z.literal('stop'), sessionId: z.string().min(1).max(64) }) },
});
