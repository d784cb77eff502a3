import { connect } from '@pi/client';
import { BACKGROUND_CONTEXT, defineRemoteService, type RemoteState } from '@pi/plugin-api';
import { z } from 'zod';
import { Greeter } from './greeter.js';

// A tool outside the repository: `PI_SOCKET=… PI_TOKEN=… node dist/use-host.js` prints what it saw as JSON.
const socketPath = process.env['PI_SOCKET'] ?? '';
const token = process.env['PI_TOKEN'] ?? '';

/** The part of the built-in Models service this tool reads, declared here: the contract is not published. */
const Models = defineRemoteService<{ readonly state: RemoteState<{ catalog: { availableModels: Model[] } }> }>(
  'models',
  {
    methods: {},
    state: { state: z.object({ catalog: z.object({ availableModels: z.array(z.object({ modelId: z.string() })) }) }) },
    events: {},
  },
);
type Model = { modelId: string };

const refused = await connect({ socketPath, token: `not-${token}`, reconnect: false });
const connected = await connect({ socketPath, token });
if (connected.isErr()) throw connected.error;
const client = connected.value;
const models = await client.use(Models);
const greeter = await client.use(Greeter);
// A context made by @pi/plugin-api's copy of the library, accepted by @pi/client's copy.
const greeting = await greeter.greet('outside', BACKGROUND_CONTEXT);
console.log(
  JSON.stringify({
    refused: refused.isErr() ? refused.error.code : 'accepted',
    status: client.connection.value.status,
    models: models.state.value.catalog.availableModels.map((model) => model.modelId),
    greeting,
    greeted: greeter.state.value.greeted,
  }),
);
client.close();
