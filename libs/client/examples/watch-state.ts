// eslint-disable-next-line @nx/enforce-module-boundaries -- the example imports the package the way a user would
import { BACKGROUND_CONTEXT, connect } from '@pi/client';
import { Catalog } from '@pi/test-support';

/** Connects, watches a replicated state, makes a call, and sees the state change. */
export async function watchThinkingLevel(
  socketPath: string,
  token: string,
  log: (line: string) => void,
): Promise<void> {
  const connected = await connect({ socketPath, token });
  if (connected.isErr()) throw connected.error; // e.g. { code: 'not_authorized' } or { code: 'unavailable' }
  const client = connected.value;

  const catalog = await client.use(Catalog); // a typed proxy; its state is already replicated
  const changed = new Promise<void>((resolve) => {
    const stop = catalog.state.subscribe((state) => {
      log(`thinking level: ${state.thinkingLevel}`); // now, then on every change
      if (state.thinkingLevel === 'off') resolve(stop());
    });
  });

  await catalog.cycleThinking(BACKGROUND_CONTEXT); // high → off
  await changed;
  client.close();
}
