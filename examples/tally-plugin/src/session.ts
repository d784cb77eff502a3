import type { SessionFacet } from '@pi/plugin-api';
import { Tally, type TallyState } from './tally.js';

/** The session facet: serves Tally; the state is the session's, replicated to every client. */
const tallySession: SessionFacet = (context) => {
  const state = context.remoteState<TallyState>({ count: 0 });
  context.provide(Tally, {
    state,
    async add(amount, callContext) {
      state.set({ count: state.value.count + amount }, callContext);
      return state.value.count;
    },
  });
};

export default tallySession;
