import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Context } from '@pi/context';
import type { RemoteConsumer, Lease } from './consumer';
import { remote, type MethodArgs, type MethodResult, type ObjectExposure } from './exposure';
import type { InteractionBroker } from './interaction-broker';
import type { InteractionHandlers } from './interaction-handlers';
import type { ServiceRegistry } from './service-registry';
import type { RemoteEvents, RemoteState } from './state-types';
import {
  ExportJobExposure,
  Notes,
  type ExportJob,
  type NotesEvent,
  type NotesService,
  type NotesState,
} from './testing/notes-service';
import {
  defineInteraction,
  defineLocalService,
  defineRemoteService,
  type Interaction,
  type RemoteService,
} from './tokens';

const notesState = z.object({ notes: z.array(z.string()) });
const notesEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('added'), text: z.string() }),
  z.object({ type: z.literal('cleared') }),
]);
const job = remote(ExportJobExposure);

const Ask = defineInteraction<{ question: string }, { answer: string }>('ask', {
  request: z.object({ question: z.string() }),
  response: z.object({ answer: z.string() }),
});

/** Type-level only: these functions are never called, they give the checker a proxy to look at. */
const _acquireNotes = (consumer: RemoteConsumer) => consumer.acquire(Notes);
type NotesProxy = Awaited<ReturnType<typeof _acquireNotes>>['service'];

describe('token to proxy typing', () => {
  it('types a remote token by its service interface', () => {
    expectTypeOf(Notes).toEqualTypeOf<RemoteService<NotesService>>();
    expectTypeOf<Awaited<ReturnType<typeof _acquireNotes>>>().toEqualTypeOf<Lease<NotesService>>();
  });

  it('gives proxy methods their JSON arguments, a trailing Context and their result', () => {
    expectTypeOf<NotesProxy['add']>().parameters.toEqualTypeOf<[string, Context]>();
    expectTypeOf<NotesProxy['add']>().returns.toEqualTypeOf<Promise<number>>();
    expectTypeOf<NotesProxy['export']>().returns.toEqualTypeOf<Promise<ExportJob>>();
    expectTypeOf<MethodArgs<NotesService['add']>>().toEqualTypeOf<[string]>();
    expectTypeOf<MethodArgs<NotesService['count']>>().toEqualTypeOf<[]>();
    expectTypeOf<MethodResult<NotesService['count']>>().toEqualTypeOf<number>();
    const misuse = (proxy: NotesProxy, context: Context) => {
      // @ts-expect-error the argument is a string
      void proxy.add(42, context);
    };
    expect(misuse).toBeTypeOf('function');
  });

  it('types replicated state and events, and narrows on(type) listeners', () => {
    expectTypeOf<NotesProxy['state']>().toEqualTypeOf<RemoteState<NotesState>>();
    expectTypeOf<NotesProxy['events']>().toEqualTypeOf<RemoteEvents<NotesEvent>>();
    const listen = (proxy: NotesProxy) => {
      proxy.events.on('added', (event) => expectTypeOf(event).toEqualTypeOf<{ type: 'added'; text: string }>());
      // @ts-expect-error not an event type of the stream
      proxy.events.on('removed', () => undefined);
    };
    expect(listen).toBeTypeOf('function');
  });
});

describe('exposure typing', () => {
  it('accepts an exposure that matches the interface', () => {
    const exposure: ObjectExposure<NotesService> = {
      methods: {
        add: { args: [z.string()], result: z.number() },
        count: { args: [], result: z.number() },
        block: { args: [], result: z.string() },
        export: { args: [], result: job },
      },
      state: { state: notesState },
      events: { events: notesEvent },
    };
    expect(Object.keys(exposure.methods)).toHaveLength(4);
  });

  it('does not compile an exposure that misses a method, a state cell or an event stream', () => {
    const missing = () => [
      defineRemoteService<NotesService>('notes', {
        // @ts-expect-error `export` is missing
        methods: {
          add: { args: [z.string()], result: z.number() },
          count: { args: [], result: z.number() },
          block: { args: [], result: z.string() },
        },
        state: { state: notesState },
        events: { events: notesEvent },
      }),
      defineRemoteService<NotesService>('notes', {
        methods: Notes.exposure.methods as ObjectExposure<NotesService>['methods'],
        // @ts-expect-error `state` is missing
        state: {},
        events: { events: notesEvent },
      }),
      defineRemoteService<NotesService>('notes', {
        methods: Notes.exposure.methods as ObjectExposure<NotesService>['methods'],
        state: { state: notesState },
        // @ts-expect-error `events` is missing
        events: {},
      }),
    ];
    expect(missing).toBeTypeOf('function');
  });

  it('does not compile a schema of the wrong type', () => {
    const wrong = (): Array<ObjectExposure<NotesService>> => [
      {
        methods: {
          // @ts-expect-error the argument schema must produce a string
          add: { args: [z.number()], result: z.number() },
          count: { args: [], result: z.number() },
          block: { args: [], result: z.string() },
          export: { args: [], result: job },
        },
        state: { state: notesState },
        events: { events: notesEvent },
      },
      {
        methods: {
          // @ts-expect-error one argument schema too many
          add: { args: [z.string(), z.string()], result: z.number() },
          // @ts-expect-error the result schema must produce a number
          count: { args: [], result: z.string() },
          // @ts-expect-error a plain result cannot be declared a remote reference
          block: { args: [], result: job },
          // @ts-expect-error a job must cross as a remote reference, not as a plain object
          export: { args: [], result: z.object({}) },
        },
        // @ts-expect-error the state schema must produce NotesState
        state: { state: z.object({ notes: z.string() }) },
        events: { events: notesEvent },
      },
    ];
    expect(wrong).toBeTypeOf('function');
  });
});

describe('registry and interaction typing', () => {
  it('types local use by the token and checks what is provided', () => {
    const Clock = defineLocalService<{ now(): number }>('clock');
    const use = (registry: ServiceRegistry) => {
      expectTypeOf(registry.use(Clock)).toEqualTypeOf<{ now(): number }>();
      expectTypeOf(registry.use(Notes)).toEqualTypeOf<NotesService>();
      // @ts-expect-error the implementation must be a Clock
      registry.provide(Clock, { now: () => 'noon' });
    };
    expect(use).toBeTypeOf('function');
  });

  it('types interaction requests, responses and handlers', () => {
    expectTypeOf(Ask).toEqualTypeOf<Interaction<{ question: string }, { answer: string }>>();
    const ask = (broker: InteractionBroker, handlers: InteractionHandlers, context: Context) => {
      expectTypeOf(broker.request(Ask, { question: 'why' }, context)).toEqualTypeOf<Promise<{ answer: string }>>();
      // @ts-expect-error the request needs a string question
      void broker.request(Ask, { question: 1 }, context);
      // @ts-expect-error the handler must answer with the response type
      handlers.handle(Ask, async () => ({ answer: 1 }));
      handlers.handle(Ask, async (request, handlerContext) => {
        expectTypeOf(request).toEqualTypeOf<{ question: string }>();
        expectTypeOf(handlerContext).toEqualTypeOf<Context>();
        return { answer: request.question };
      });
    };
    expect(ask).toBeTypeOf('function');
  });

  it('does not compile interaction schemas that disagree with the declared types', () => {
    const define = () =>
      defineInteraction<{ question: string }, { answer: string }>('ask', {
        request: z.object({ question: z.string() }),
        // @ts-expect-error the response schema must produce { answer: string }
        response: z.object({ answer: z.number() }),
      });
    expect(define).toBeTypeOf('function');
  });
});
