import { z } from 'zod';
import type { Context } from '@pi/context';
import type { JsonValue } from '@pi/json';
import { defineRemoteService, type RemoteEvents, type RemoteState } from '@pi/remote';

/**
 * The wire side of views (issue 22): the session snapshot's `views` section is the `open` state cell of the
 * built-in `views` service, each connection sent only the views addressed to it; the three delta kinds are
 * `view_state` and `view_closed` on its `deltas` stream (session → client) and `view_message`, the `message`
 * call (client → session). A view opening is a change of `open`.
 */

/** A view's audience on the wire: every client, or these client ids. */
export type ViewAudience = 'all' | string[];

/** One open view, as the snapshot carries it: enough to render it from nothing (late join, reattach). */
export interface ViewRecord {
  viewId: string;
  component: string;
  state: JsonValue;
  to: ViewAudience;
  durable: boolean;
  /**
   * Increases (session-wide) with every open and state change: a client keeps, per view id, only what is newer
   * than what it holds, so a snapshot and the deltas around it agree whatever order they arrive in.
   */
  version: number;
}

/** Why a view closed: its plugin closed it, its last addressee left (non-durable only), or its plugin stopped. */
export type ViewCloseReason = 'closed' | 'no_clients' | 'disposed';

export type ViewDelta =
  | { type: 'view_state'; viewId: string; state: JsonValue; to: ViewAudience; version: number }
  | { type: 'view_closed'; viewId: string; reason: ViewCloseReason; to: ViewAudience; version: number };

/** The built-in `views` service every session serves. */
export interface ViewsService {
  /** The views addressed to the caller, with their current state. */
  readonly open: RemoteState<ViewRecord[]>;
  readonly deltas: RemoteEvents<ViewDelta>;
  /**
   * `view_message`: a client's message to a view addressed to it. Refused with `unknown_view` when no such view is
   * open for the caller, `invalid_argument` when the message breaks the view's message schema.
   */
  message(viewId: string, message: JsonValue, context: Context): Promise<void>;
  /**
   * The components the calling client renders views of (its whole list; a later call replaces it, a disconnect
   * forgets it): a plugin can tell whether anyone shows its view (`View.shownBy`), as a question must.
   */
  show(components: string[], context: Context): Promise<void>;
}

/** The most component names one client declares. */
export const MAX_SHOWN_COMPONENTS = 500;

/** The longest view id and component name. */
export const MAX_VIEW_NAME_LENGTH = 200;

const jsonValueSchema: z.ZodType<JsonValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValueSchema),
    z.record(z.string(), jsonValueSchema),
  ]),
);
const name = z.string().min(1).max(MAX_VIEW_NAME_LENGTH);
const audienceSchema: z.ZodType<ViewAudience> = z.union([z.literal('all'), z.array(z.string())]);
const version = z.number().int().min(0);

export const viewRecordSchema: z.ZodType<ViewRecord> = z.object({
  viewId: name,
  component: name,
  state: jsonValueSchema,
  to: audienceSchema,
  durable: z.boolean(),
  version,
});

export const viewDeltaSchema: z.ZodType<ViewDelta> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('view_state'), viewId: name, state: jsonValueSchema, to: audienceSchema, version }),
  z.object({
    type: z.literal('view_closed'),
    viewId: name,
    reason: z.enum(['closed', 'no_clients', 'disposed']),
    to: audienceSchema,
    version,
  }),
]);

/** The `views` service's token: the session host provides it; presentations watch it and send messages. */
export const Views = defineRemoteService<ViewsService>('views', {
  methods: {
    message: { args: [name, jsonValueSchema], result: z.void() },
    show: { args: [z.array(name).max(MAX_SHOWN_COMPONENTS)], result: z.void() },
  },
  state: { open: z.array(viewRecordSchema) },
  events: { deltas: viewDeltaSchema },
});

/** Whether a client is among a view's addressees. */
export function addresses(to: ViewAudience, clientId: string): boolean {
  return to === 'all' || to.includes(clientId);
}
