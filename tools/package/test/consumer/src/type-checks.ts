import type { inferRouterInputs } from '@trpc/server';
import type { SessionRouter } from '@pi/session-api';
import { connect, type PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT } from '@pi/plugin-api';
import { Greeter } from './greeter.js';

// Compiled, never run: the packed declarations are real types, not `any`.
export async function typeChecks(client: PiClient): Promise<void> {
  const greeter = await client.use(Greeter);
  const greeting: string = await greeter.greet('typed', BACKGROUND_CONTEXT);
  // @ts-expect-error greet takes a string
  await greeter.greet(42, BACKGROUND_CONTEXT);
  // @ts-expect-error the replicated state is typed
  const wrong: string = greeter.state.value.greeted;
  // @ts-expect-error a token is required
  await connect({ socketPath: '/tmp/s.sock' });
  void [greeting, wrong];
}

/** The packed session API types a stock tRPC client's router: inputs and outputs per method. */
export type SelectInput = inferRouterInputs<SessionRouter>['models']['select'];
export const selectInput: SelectInput = { a: [{ provider: 'offline', modelId: 'echo' }], c: 'call-1' };
// @ts-expect-error the arguments of models.select are typed
export const badSelectInput: SelectInput = { a: [42], c: 'call-1' };
