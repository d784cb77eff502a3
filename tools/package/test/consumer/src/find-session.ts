import { connect } from '@pi/client';
import { defineRemoteService, type RemoteState } from '@pi/plugin-api';
import { z } from 'zod';

// A script run from anywhere: `PI_PROJECT=… node dist/find-session.js` attaches to the session working in that
// directory (found through its connection file), prints the models it offers, and exits 0; with no session
// running there it prints one line and exits 1.
const Models = defineRemoteService<{ readonly state: RemoteState<{ catalog: { availableModels: Model[] } }> }>(
  'models',
  {
    methods: {},
    state: { state: z.object({ catalog: z.object({ availableModels: z.array(z.object({ modelId: z.string() })) }) }) },
    events: {},
  },
);
type Model = { modelId: string };

const connected = await connect({ cwd: process.env['PI_PROJECT'] ?? process.cwd(), dataDir: process.env['PI_DATA'] });
if (connected.isErr()) {
  console.error(`find-session: ${connected.error.message}`);
  process.exit(1);
}
const client = connected.value;
const models = await client.use(Models);
console.log(JSON.stringify(models.state.value.catalog.availableModels.map((model) => model.modelId)));
client.close();
