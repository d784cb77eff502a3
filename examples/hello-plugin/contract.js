// @ts-check
import { defineRemoteService, z } from '@pi/plugin-api';

/**
 * @typedef {{ greeted: string[] }} GreetingState
 * @typedef {{ type: 'greeted', name: string }} GreetingEvent
 * @typedef {object} GreetingService
 * @property {import('@pi/plugin-api').RemoteState<GreetingState>} state
 * @property {import('@pi/plugin-api').RemoteEvents<GreetingEvent>} events
 * @property {(name: string, context: import('@pi/plugin-api').Context) => Promise<string>} greet
 */

/** The service a client calls: what presentations of any host see of this plugin. */
export const Greeting = /** @type {import('@pi/plugin-api').RemoteService<GreetingService>} */ (
  defineRemoteService('greeting', {
    methods: { greet: { args: [z.string().min(1).max(100)], result: z.string() } },
    state: { state: z.object({ greeted: z.array(z.string()) }) },
    events: { events: z.object({ type: z.literal('greeted'), name: z.string() }) },
  })
);
