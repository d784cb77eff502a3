import { z } from 'zod';
import type { Context } from '@pi/context';
import { createRemoteEvents, type AuthoritativeEvents } from '../events';
import { remote, type ObjectExposure } from '../exposure';
import { createRemoteState, type AuthoritativeState } from '../state';
import type { RemoteEvents, RemoteState } from '../state-types';
import { defineRemoteService } from '../tokens';

/** A small service for this library's own tests: state, events, plain methods and a job-returning one. */
export interface NotesState {
  notes: string[];
}

export type NotesEvent = { type: 'added'; text: string } | { type: 'cleared' };

export interface ExportJob {
  readonly progress: RemoteState<{ done: boolean }>;
  finish(context: Context): Promise<void>;
}

export interface NotesService {
  readonly state: RemoteState<NotesState>;
  readonly events: RemoteEvents<NotesEvent>;
  add(text: string, context: Context): Promise<number>;
  count(context: Context): Promise<number>;
  /** Resolves with the abort reason's message once its context is aborted. */
  block(context: Context): Promise<string>;
  export(context: Context): Promise<ExportJob>;
}

export const ExportJobExposure: ObjectExposure<ExportJob> = {
  methods: { finish: { args: [], result: z.void() } },
  state: { progress: z.object({ done: z.boolean() }) },
  events: {},
};

export const Notes = defineRemoteService<NotesService>('notes', {
  methods: {
    add: { args: [z.string().min(1)], result: z.number().int() },
    count: { args: [], result: z.number().int() },
    block: { args: [], result: z.string() },
    export: { args: [], result: remote(ExportJobExposure) },
  },
  state: { state: z.object({ notes: z.array(z.string()) }) },
  events: {
    events: z.discriminatedUnion('type', [
      z.object({ type: z.literal('added'), text: z.string() }),
      z.object({ type: z.literal('cleared') }),
    ]),
  },
});

export type NotesProvider = NotesService & {
  readonly state: AuthoritativeState<NotesState>;
  readonly events: AuthoritativeEvents<NotesEvent>;
  readonly jobs: Array<
    ExportJob & { readonly progress: AuthoritativeState<{ done: boolean }>; readonly settled: Promise<void> }
  >;
};

export function createNotes(): NotesProvider {
  const state = createRemoteState<NotesState>({ notes: [] });
  const events = createRemoteEvents<NotesEvent>();
  const jobs: NotesProvider['jobs'] = [];
  return {
    state,
    events,
    jobs,
    async add(text, context) {
      state.set({ notes: [...state.value.notes, text] }, context);
      events.emit({ type: 'added', text }, context);
      return state.value.notes.length;
    },
    async count() {
      return state.value.notes.length;
    },
    block(context) {
      return new Promise((resolve) => {
        context.abortSignal?.addEventListener('abort', () =>
          resolve(String((context.abortSignal?.reason as Error | undefined)?.message)),
        );
      });
    },
    async export() {
      const progress = createRemoteState({ done: false });
      let finished: () => void = () => undefined;
      const settled = new Promise<void>((resolve) => (finished = resolve));
      const job = {
        progress,
        settled,
        async finish(context: Context) {
          progress.set({ done: true }, context);
          finished();
        },
      };
      jobs.push(job);
      return job;
    },
  };
}
