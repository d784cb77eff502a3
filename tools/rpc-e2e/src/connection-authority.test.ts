import { afterEach, describe, expect, it } from 'vitest';
import { err, ok } from 'neverthrow';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import {
  CALLER_IDENTITY,
  RemoteError,
  ServiceRegistry,
  createRemoteEvents,
  createRemoteState,
  defineRemoteService,
  type RemoteEvents,
  type RemoteState,
  type RemoteViewer,
} from '@pi/remote';
import { createRpcClient, createRpcHost, type RpcClient, type RpcHost } from '@pi/transport-trpc';
import { TRANSPORTS, eventually, remoteErrorOf, serveHost, type HostTransport } from '@pi/test-support';

interface Note {
  workspace: string;
  text: string;
}
interface NotesState {
  notes: Note[];
}
type NoteEvent = { type: 'added'; note: Note };

interface NotesService {
  readonly state: RemoteState<NotesState>;
  readonly events: RemoteEvents<NoteEvent>;
  add(note: Note, context: Context): Promise<void>;
  whoAmI(context: Context): Promise<string>;
}

const note = z.strictObject({ workspace: z.string(), text: z.string() });
const Notes = defineRemoteService<NotesService>('notes', {
  methods: {
    add: { args: [note], result: z.void() },
    whoAmI: { args: [], result: z.string() },
  },
  state: { state: z.strictObject({ notes: z.array(note) }) },
  events: { events: z.strictObject({ type: z.literal('added'), note }) },
});

/** Each token names one person of one workspace; the identity comes from the credential, never from a call. */
const PEOPLE: Record<string, { principal: string; workspace: string }> = {
  'token-alice': { principal: 'alice', workspace: 'w-red' },
  'token-bob': { principal: 'bob', workspace: 'w-blue' },
};

const workspaceOf = (viewer: RemoteViewer) => viewer.caller?.claims['workspace'];
const callerWorkspace = (context: Context) => context.value(CALLER_IDENTITY)?.claims['workspace'];

function notesHost(): { host: RpcHost; add(note: Note): void } {
  const state = createRemoteState<NotesState>(
    { notes: [] },
    { projectFor: (value, viewer) => ({ notes: value.notes.filter((n) => n.workspace === workspaceOf(viewer)) }) },
  );
  const events = createRemoteEvents<NoteEvent>({
    projectFor: (event, viewer) => (event.note.workspace === workspaceOf(viewer) ? event : undefined),
  });
  const add = (added: Note, context: Context) => {
    state.set({ notes: [...state.value.notes, added] }, context);
    events.emit({ type: 'added', note: added }, context);
  };
  const registry = new ServiceRegistry();
  registry.provide(Notes, {
    state,
    events,
    async add(added, context) {
      if (added.workspace !== callerWorkspace(context)) {
        throw new RemoteError('not_authorized', `Cannot write to workspace ${added.workspace}`);
      }
      add(added, context);
    },
    whoAmI: async (context) => context.value(CALLER_IDENTITY)?.principal ?? 'nobody',
  });
  const host = createRpcHost({
    registry,
    keepAlive: false,
    authenticate: (params) => {
      const person = PEOPLE[params?.['token'] ?? ''];
      return person === undefined
        ? err('Unknown token')
        : ok({ principal: person.principal, claims: { workspace: person.workspace } });
    },
  });
  return { host, add: (added) => add(added, BACKGROUND_CONTEXT) };
}

describe.each(TRANSPORTS)('per-connection authority over %s', (kind) => {
  let served: HostTransport | undefined;
  let host: RpcHost | undefined;
  const clients: RpcClient[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    host?.close();
    await served?.close();
    [served, host] = [undefined, undefined];
  });

  async function start(connectionParams: Record<string, string>[]) {
    const notes = notesHost();
    host = notes.host;
    served = await serveHost(kind, notes.host);
    const received = connectionParams.map(() => [] as string[]);
    const opened = connectionParams.map((params, index) =>
      createRpcClient({
        socketFactory: () => {
          const socket = served!.socketFactory();
          socket.onMessage((data) => received[index]!.push(data));
          return socket;
        },
        connectionParams: params,
        reconnect: false,
      }),
    );
    clients.push(...opened);
    return { notes, clients: opened, received };
  }

  it('installs the identity from the credential, whatever else the client presents', async () => {
    const { clients } = await start([{ token: 'token-alice', principal: 'bob', workspace: 'w-blue' }]);
    const service = await clients[0]!.use(Notes);
    expect(await service.whoAmI(BACKGROUND_CONTEXT)).toBe('alice');
  });

  it('authorizes each call against the connection identity, not the arguments', async () => {
    const { clients } = await start([{ token: 'token-alice' }]);
    const service = await clients[0]!.use(Notes);
    await service.add({ workspace: 'w-red', text: 'mine' }, BACKGROUND_CONTEXT);
    const forged = await remoteErrorOf(service.add({ workspace: 'w-blue', text: 'forged' }, BACKGROUND_CONTEXT));
    expect(forged.code).toBe('not_authorized');
    // A call cannot smuggle an identity either: the argument schema is strict.
    const smuggled = await remoteErrorOf(
      service.add({ workspace: 'w-red', text: 'x', principal: 'bob' } as Note, BACKGROUND_CONTEXT),
    );
    expect(smuggled.code).toBe('invalid_argument');
    expect(service.state.value.notes).toEqual([{ workspace: 'w-red', text: 'mine' }]);
  });

  it('sends each connection only its projection of the state, in the snapshot and in every change', async () => {
    const { notes, clients, received } = await start([{ token: 'token-alice' }, { token: 'token-bob' }]);
    notes.add({ workspace: 'w-blue', text: 'blue secret before' });
    const [alice, bob] = await Promise.all(clients.map((client) => client.use(Notes)));
    expect(alice!.state.value.notes).toEqual([]);
    expect(bob!.state.value.notes).toEqual([{ workspace: 'w-blue', text: 'blue secret before' }]);

    notes.add({ workspace: 'w-red', text: 'red note' });
    notes.add({ workspace: 'w-blue', text: 'blue secret after' });
    await eventually(() => bob!.state.value.notes.length === 2);
    await eventually(() => alice!.state.value.notes.length === 1);
    expect(alice!.state.value.notes).toEqual([{ workspace: 'w-red', text: 'red note' }]);
    // Nothing of the other workspace ever reached alice's socket: the projection runs on the host. A change she
    // cannot see is not sent to her at all.
    expect(received[0]!.some((frame) => frame.includes('red note'))).toBe(true);
    expect(received[0]!.filter((frame) => frame.includes('blue'))).toEqual([]);
    expect(received[1]!.some((frame) => frame.includes('blue secret after'))).toBe(true);
  });

  it('withholds events a connection may not see, and sends the ones it may', async () => {
    const { notes, clients } = await start([{ token: 'token-alice' }, { token: 'token-bob' }]);
    const [alice, bob] = await Promise.all(clients.map((client) => client.use(Notes)));
    const seen = { alice: [] as string[], bob: [] as string[] };
    alice!.events.subscribe((event) => seen.alice.push(event.note.text));
    bob!.events.subscribe((event) => seen.bob.push(event.note.text));
    notes.add({ workspace: 'w-blue', text: 'blue' });
    notes.add({ workspace: 'w-red', text: 'red' });
    await eventually(() => seen.alice.length > 0 && seen.bob.length > 0);
    expect(seen.alice).toEqual(['red']);
    expect(seen.bob).toEqual(['blue']);
  });
});
