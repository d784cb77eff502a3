/** How many model answers a run may take unless the harness is told otherwise (`HarnessOptions.maxTurns`). */
export const DEFAULT_MAX_TURNS = 16;
