// eslint-disable-next-line @nx/enforce-module-boundaries -- the example imports the package the way a user would
import { BACKGROUND_CONTEXT, connect, sessionTokens } from '@pi/client';

/** Attaches to the session running in `cwd`, lists its models, selects one and sees the selection replicated. */
export async function selectModel(cwd: string, log: (line: string) => void, dataDir?: string): Promise<void> {
  const connected = await connect({ cwd, dataDir }); // `dataDir` only when the session was started with --data-dir
  if (connected.isErr()) throw connected.error; // e.g. { code: 'unavailable', message: 'No session is running in …' }
  const client = connected.value;
  try {
    const models = await client.use(sessionTokens.models); // typed proxy; its `state` is already replicated
    const catalog = models.state.value.catalog.availableModels;
    const ready = catalog.filter((model) => model.keyMissing !== true); // models whose provider has a key (or needs none)
    const [first] = ready;
    if (first === undefined) throw new Error('The session offers no model with a key');
    log(`models: ${ready.map((model) => model.modelId).join(', ')}`);

    await models.select({ provider: first.provider, modelId: first.modelId }, BACKGROUND_CONTEXT);
    log(`selected: ${models.state.value.configuration.model?.modelId}`); // the change arrived before the result
  } finally {
    client.close(); // always: an open client keeps the process alive
  }
}
