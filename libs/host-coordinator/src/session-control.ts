import { BACKGROUND_CONTEXT } from '@pi/context';
import type { SessionControlEvent, SessionControlService, SessionControlState } from '@pi/coordinator-api';
import { createRemoteEvents, createRemoteState } from '@pi/remote';

/** The coordinator's side of `SessionControl`: the service it serves, and how it asks a session to stop. */
export interface SessionControlSide {
  readonly service: SessionControlService;
  /** Sends `stop` to the session's own upstream connections (to none when it is not connected here). */
  askToStop(sessionId: string): void;
  /** Tells every session where the replicas serve now. */
  setReplicas(urls: readonly string[]): void;
}

/** Each session connection is sent only the events that name it; other connections (the user's) see none. */
export function createSessionControl(): SessionControlSide {
  const sessionOf = (claims: Readonly<Record<string, unknown>> | undefined) =>
    claims?.['kind'] === 'session' && typeof claims['sessionId'] === 'string' ? claims['sessionId'] : undefined;
  const events = createRemoteEvents<SessionControlEvent>({
    projectFor: (event, viewer) => (sessionOf(viewer.caller?.claims) === event.sessionId ? event : undefined),
    projectionKey: (viewer) => sessionOf(viewer.caller?.claims) ?? '',
  });
  const state = createRemoteState<SessionControlState>({ replicas: [] });
  return {
    service: { events, state },
    setReplicas: (urls) => {
      const replicas = [...urls].sort();
      if (replicas.join('\n') !== state.value.replicas.join('\n')) state.set({ replicas }, BACKGROUND_CONTEXT);
    },
    askToStop: (sessionId) => events.emit({ type: 'stop', sessionId }, BACKGROUND_CONTEXT),
  };
}
