import { defineRemoteService, type Context, type RemoteState } from '@pi/plugin-api';
import { z } from 'zod';

/** A plugin's contract, written outside the pi repository against the packed @pi/plugin-api. */
export interface Greeter {
  readonly state: RemoteState<{ greeted: number }>;
  greet(name: string, context: Context): Promise<string>;
}

export const Greeter = defineRemoteService<Greeter>('greeter', {
  methods: { greet: { args: [z.string()], result: z.string() } },
  state: { state: z.object({ greeted: z.number() }) },
  events: {},
});
