// @ts-check
import { RemoteError } from '@pi/plugin-api';
import { Greeting } from './contract.js';

/** The session facet: provides Greeting with authoritative state and an event per greeting. */
export default /** @type {import('@pi/plugin-api').SessionFacet} */ (
  (context) => {
    const state = context.remoteState(/** @type {import('./contract.js').GreetingState} */ ({ greeted: [] }));
    const events = context.remoteEvents();
    context.provide(Greeting, {
      state,
      events,
      async greet(name, callContext) {
        if (state.value.greeted.length >= 1000) throw new RemoteError('limit_exceeded', 'Enough greetings');
        state.set({ greeted: [...state.value.greeted, name] }, callContext);
        events.emit({ type: 'greeted', name }, callContext);
        return `Hello, ${name}!`;
      },
    });
  }
);
