import { chatSessionFacet } from './chat-session-facet';

export { chatSessionFacet, pluginId } from './chat-session-facet';
export { projectTranscript, toTranscriptEntry, type ProjectedTranscript } from './transcript-projection';
export { TranscriptLog, randomBranchId, type TranscriptChange } from './transcript-log';

/** The facet under the name every session facet module exports, for the host's facet table. */
export const sessionFacet = chatSessionFacet;

export default sessionFacet;
