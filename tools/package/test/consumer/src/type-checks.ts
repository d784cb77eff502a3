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
