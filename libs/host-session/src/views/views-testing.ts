import { z } from 'zod';
import type { Context } from '@pi/context';
import { CLIENT_ID, defineRemoteService } from '@pi/remote';
import {
  Views,
  ViewReplica,
  defineView,
  type SessionFacet,
  type View,
  type ViewOptions,
  type ViewsService,
} from '@pi/plugin-api';
import type { RpcClient } from '@pi/transport-trpc';

/** A counter view: its state is a number, clients send increments. */
export const Counter = defineView('test.counter', {
  state: z.object({ count: z.number().int() }),
  message: z.object({ add: z.number().int().min(1) }),
});

/** A test plugin's remote front for `context.view`, so each client's call opens a view as its originator. */
export interface PanelService {
  whoami(context: Context): Promise<string>;
  open(to: 'originator' | 'all', durable: boolean, id: string | null, context: Context): Promise<string>;
  set(viewId: string, count: number, context: Context): Promise<void>;
  close(viewId: string, result: string, context: Context): Promise<void>;
}

export const Panel = defineRemoteService<PanelService>('panel', {
  methods: {
    whoami: { args: [], result: z.string() },
    open: { args: [z.enum(['originator', 'all']), z.boolean(), z.string().nullable()], result: z.string() },
    set: { args: [z.string(), z.number().int()], result: z.void() },
    close: { args: [z.string(), z.string()], result: z.void() },
  },
  state: {},
  events: {},
});

/** What the panel plugin saw: its views, the messages they received and how each ended. */
export interface PanelRecord {
  readonly views: Map<string, View<{ count: number }, { add: number }, unknown>>;
  readonly messages: Array<{ viewId: string; add: number; from: string }>;
  readonly ended: Map<string, unknown>;
}

/** The panel plugin; `reclaim` names durable views it opens again (by id) while the session starts. */
export function panelFacet(record: PanelRecord, reclaim: readonly string[] = []): SessionFacet {
  return (context) => {
    const view = (viewId: string) => {
      const found = record.views.get(viewId);
      if (found === undefined) throw new Error(`no view ${viewId}`);
      return found;
    };
    const open = (options: ViewOptions) => {
      const opened = context.view(Counter, { count: 0 }, options);
      record.views.set(opened.id, opened);
      opened.on((message, from) => record.messages.push({ viewId: opened.id, add: message.add, from }));
      void opened.done.then((outcome) =>
        record.ended.set(opened.id, outcome.isOk() ? { result: outcome.value } : { end: outcome.error }),
      );
      return opened.id;
    };
    for (const id of reclaim) open({ to: 'all', durable: true, id });
    context.provide(Panel, {
      whoami: async (call) => call.value(CLIENT_ID) ?? '',
      async open(to, durable, id, call) {
        return open({ to, durable, context: call, ...(id === null ? {} : { id }) });
      },
      async set(viewId, count) {
        view(viewId).state = { count };
      },
      async close(viewId, result) {
        view(viewId).close(result);
      },
    });
  };
}

export function newPanelRecord(): PanelRecord {
  return { views: new Map(), messages: [], ended: new Map() };
}

/** A client's replica of the views addressed to it, fed from the `views` service as a presentation would. */
export async function watchViews(client: RpcClient): Promise<{ replica: ViewReplica; views: ViewsService }> {
  const views = await client.use(Views);
  const replica = new ViewReplica();
  views.open.subscribe((records) => replica.applyOpen(records));
  views.deltas.subscribe((delta) => replica.applyDelta(delta));
  return { replica, views };
}
