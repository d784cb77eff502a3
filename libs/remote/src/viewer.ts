import type { Context } from '@pi/context';
import { CALLER_IDENTITY, CLIENT_ID, type CallerIdentity } from './context-keys';

/** The connection a projection is made for, as the providing host's transport installed it. */
export interface RemoteViewer {
  readonly clientId: string;
  /** Who authenticated the connection; undefined only on hosts that install no identity. */
  readonly caller: CallerIdentity | undefined;
}

/** The viewer a connection's server-local context describes. */
export function viewerOf(connectionContext: Context): RemoteViewer {
  return {
    clientId: connectionContext.value(CLIENT_ID) ?? '',
    caller: connectionContext.value(CALLER_IDENTITY),
  };
}

/** What one connection may see of a state value; the value itself when the cell has no projection. */
export type StateProjection<T> = (value: T, viewer: RemoteViewer) => T;

/** What one connection may see of an event; `undefined` withholds it from that connection. */
export type EventProjection<E> = (event: E, viewer: RemoteViewer) => E | undefined;

/**
 * Which viewers see the same projection: connections whose keys are equal are sent one projection, computed once
 * per change (with the first such viewer) and encoded once. The key must therefore capture everything of the viewer
 * the projection reads; a key that omits something would show one connection what was projected for another.
 */
export type ProjectionKey = (viewer: RemoteViewer) => string;
