import { definePlugin, withAbortSignal } from '@pi/plugin-api';
import { Greeter } from './greeter.js';

/** The plugin's session facet: a host loads it from this folder's package.json `pi` field. */
export default definePlugin({
  id: 'greeter',
  session: (context) => {
    const state = context.remoteState({ greeted: 0 });
    context.provide(Greeter, {
      state,
      async greet(name, callContext) {
        // A context the host made, derived by this plugin's own bundled copy of the library.
        const derived = withAbortSignal(new AbortController().signal, callContext);
        state.set({ greeted: state.value.greeted + 1 }, derived);
        return `hello ${name} from ${context.pluginId}`;
      },
    });
  },
});
