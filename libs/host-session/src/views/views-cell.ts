import type { Context } from '@pi/context';
import { createRemoteState, type AuthoritativeState, type StateChange } from '@pi/remote';
import { addresses, type ViewRecord } from '@pi/plugin-api';

/**
 * The `open` cell of the views service: the snapshot's `views` section. Its value is always every open view with
 * its current state (what a new watch, a late joiner or a reattached client, is sent), but a change is published
 * only when a view opens or closes; a state change travels as a `view_state` delta instead of the whole list.
 * The revision counts every change, so published revisions skip numbers (which the protocol allows). Each
 * connection sees only the views addressed to it.
 */
export interface ViewsCell extends AuthoritativeState<ViewRecord[]> {
  /** A view's state changed: the value moves on, nothing is published. */
  touch(): void;
  /** A view opened or closed: the value moves on and is published. */
  publish(context: Context): void;
}

export function viewsCell(current: () => ViewRecord[]): ViewsCell {
  // The published feed: set on open and close only, so observers (watches) hear exactly those.
  const published = createRemoteState<ViewRecord[]>([]);
  let revision = 0;
  let value: ViewRecord[] | undefined;
  const read = () => (value ??= Object.freeze(current().map((record) => Object.freeze({ ...record }))) as ViewRecord[]);
  return {
    projectFor: (records, viewer) => records.filter((record) => addresses(record.to, viewer.clientId)),
    projectionKey: undefined,
    get value() {
      return read();
    },
    get revision() {
      return revision;
    },
    touch() {
      revision += 1;
      value = undefined;
    },
    publish(context) {
      revision += 1;
      value = undefined;
      published.set(read(), context);
    },
    set() {
      throw new TypeError('The views cell is written by the session host only');
    },
    subscribe: (listener) => published.subscribe((_published, context) => listener(read(), context)),
    observe: (observer) =>
      published.observe((change: StateChange<ViewRecord[]>) => observer({ ...change, value: read(), revision })),
  };
}
