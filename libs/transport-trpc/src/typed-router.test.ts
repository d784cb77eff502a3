import { createTRPCClient, type TRPCClient, type TRPCClientError } from '@trpc/client';
import type { TRPC_ERROR_CODE_KEY, inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Context, TraceCarrier } from '@pi/context';
import {
  defineRemoteService,
  remote,
  type HostDescription,
  type JsonValue,
  type ObjectExposure,
  type RemoteEvents,
  type RemoteState,
} from '@pi/remote';
import type { HelloAnswer } from './hello';
import { hostTokens, type HostRouter, type ServiceWatchFrame } from './typed-router';

interface Job {
  readonly progress: RemoteState<{ done: number }>;
  cancel(context: Context): Promise<void>;
}

interface NotesService {
  readonly notes: RemoteState<{ items: string[] }>;
  readonly changes: RemoteEvents<{ type: 'added'; text: string } | { type: 'cleared' }>;
  add(text: string, tags: string[], context: Context): Promise<number>;
  clear(context: Context): Promise<void>;
  find(query: { text: string }, context: Context): Promise<{ text: string } | null>;
  export(context: Context): Promise<Job>;
}

interface PingService {
  ping(context: Context): Promise<'pong'>;
}

const jobExposure: ObjectExposure<Job> = {
  methods: { cancel: { args: [], result: z.void() } },
  state: { progress: z.object({ done: z.number() }) },
  events: {},
};

const Notes = defineRemoteService<NotesService>('notes', {
  methods: {
    add: { args: [z.string(), z.array(z.string())], result: z.number() },
    clear: { args: [], result: z.void() },
    find: { args: [z.object({ text: z.string() })], result: z.object({ text: z.string() }).nullable() },
    export: { args: [], result: remote(jobExposure) },
  },
  state: { notes: z.object({ items: z.array(z.string()) }) },
  events: {
    changes: z.discriminatedUnion('type', [
      z.object({ type: z.literal('added'), text: z.string() }),
      z.object({ type: z.literal('cleared') }),
    ]),
  },
});

const Ping = defineRemoteService<PingService>('ping', {
  methods: { ping: { args: [], result: z.literal('pong') } },
  state: {},
  events: {},
});

const tokens = hostTokens({ notes: Notes, ping: Ping });
type Router = HostRouter<typeof tokens>;
type Inputs = inferRouterInputs<Router>;
type Outputs = inferRouterOutputs<Router>;

/** Type-level only: never called, it gives the checker a stock client to look at. */
const _client = () => createTRPCClient<Router>({ links: [] });
type Client = ReturnType<typeof _client>;

describe('HostRouter: the router type a stock tRPC client infers from tokens', () => {
  it('types `<service>.<method>` inputs as { a: [...args], c, t? }', () => {
    expectTypeOf<Inputs['notes']['add']>().toEqualTypeOf<{
      readonly a: [string, string[]];
      readonly c: string;
      readonly t?: TraceCarrier;
    }>();
    expectTypeOf<Inputs['notes']['clear']['a']>().toEqualTypeOf<[]>();
    const misuse = (client: Client) => {
      // @ts-expect-error the second argument is a string array
      void client.notes.add.mutate({ a: ['x', 1], c: '1' });
      // @ts-expect-error no such method
      void client.notes.remove.mutate({ a: [], c: '1' });
      // @ts-expect-error no such service
      void client.chat.prompt.mutate({ a: [], c: '1' });
    };
    expect(misuse).toBeTypeOf('function');
  });

  it('types outputs as { value }, {} for void, { ref } for a remote result', () => {
    expectTypeOf<Outputs['notes']['add']>().toEqualTypeOf<{ value: number }>();
    expectTypeOf<Outputs['notes']['find']>().toEqualTypeOf<{ value: { text: string } | null }>();
    expectTypeOf<Outputs['notes']['clear']>().toEqualTypeOf<{ value?: undefined }>();
    expectTypeOf<Outputs['notes']['export']>().toEqualTypeOf<{ ref: string }>();
    expectTypeOf<Outputs['ping']['ping']>().toEqualTypeOf<{ value: 'pong' }>();
    expectTypeOf<Awaited<ReturnType<Client['notes']['add']['mutate']>>>().toEqualTypeOf<{ value: number }>();
  });

  it('types `<service>.$watch` frames by state cell and event stream', () => {
    type Frame = ServiceWatchFrame<NotesService>;
    expectTypeOf<Extract<Frame, { kind: 'snapshot' }>['state']>().toEqualTypeOf<{
      notes: { revision: number; value: { items: string[] } };
    }>();
    expectTypeOf<Extract<Frame, { kind: 'state' }>['cell']>().toEqualTypeOf<'notes'>();
    expectTypeOf<Extract<Frame, { kind: 'event' }>['event']>().toEqualTypeOf<
      { type: 'added'; text: string } | { type: 'cleared' }
    >();
    const watch = (client: Client) =>
      client.notes.$watch.subscribe(undefined, {
        onData: (frame) => expectTypeOf(frame).toEqualTypeOf<Frame>(),
      });
    expect(watch).toBeTypeOf('function');
    type PingSnapshot = Extract<ServiceWatchFrame<PingService>, { kind: 'snapshot' }>['state'];
    expectTypeOf<keyof PingSnapshot>().toEqualTypeOf<never>();
  });

  it('carries $rpc as every host serves it, describe included', () => {
    expectTypeOf<Outputs['$rpc']['describe']>().toEqualTypeOf<HostDescription>();
    expectTypeOf<Outputs['$rpc']['hello']>().toEqualTypeOf<HelloAnswer>();
    // A stock client may say hello with no input, as it could before the handshake carried the protocol.
    expectTypeOf<undefined>().toExtend<Inputs['$rpc']['hello']>();
    expectTypeOf<Inputs['$rpc']['cancel']>().toEqualTypeOf<{ c: string }>();
    expectTypeOf<TRPCClient<Router>>().toEqualTypeOf<Client>();
    expectTypeOf<TRPCClientError<Router>['data']>().toEqualTypeOf<
      | {
          code: TRPC_ERROR_CODE_KEY;
          httpStatus: number;
          remote: { code: string; message: string; data?: JsonValue };
        }
      | null
      | undefined
    >();
  });
});

describe('hostTokens', () => {
  it('keys tokens by id and refuses a token under another key', () => {
    expect(Object.keys(tokens)).toEqual(['notes', 'ping']);
    expect(() => hostTokens({ note: Notes })).toThrow(/keyed "note"/);
  });
});
