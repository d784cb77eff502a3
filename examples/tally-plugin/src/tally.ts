import { defineRemoteService, z, type Context, type RemoteState } from '@pi/plugin-api';

/** What every client holds a live replica of. */
export interface TallyState {
  readonly count: number;
}

/** The plugin's contract: the session serves it, the TUI facet and any tool use it by this token. */
export interface TallyService {
  readonly state: RemoteState<TallyState>;
  /** Adds `amount` (1 to 1000) and answers the new count. */
  add(amount: number, context: Context): Promise<number>;
}

export const Tally = defineRemoteService<TallyService>('tally', {
  methods: { add: { args: [z.number().int().min(1).max(1000)], result: z.number() } },
  state: { state: z.object({ count: z.number().int().min(0) }) },
  events: {},
});
