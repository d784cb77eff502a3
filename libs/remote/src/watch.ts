import { RemoteError } from './errors';
import type { AuthoritativeEvents, EmittedEvent } from './events';
import type { AnyExposure, Schema } from './exposure';
import { detachJson, jsonEquals, schemaCheck, type JsonValue } from '@pi/json';
import type { CellSnapshot, WatchFrame } from './protocol';
import type { AuthoritativeState } from './state';
import type { ProjectionKey, RemoteViewer } from './viewer';

/**
 * Streams one object's exposed state and events: first an atomic snapshot of every cell, then each
 * change and event, numbered. Snapshot and subscription happen in one synchronous step, so no change
 * can fall between them and none is sent twice.
 *
 * Values are checked against the exposure before they leave, as call results are: a provider that breaks
 * its contract fails a new watch with `invalid_result`, and a later bad change or event is withheld (and
 * reported) rather than sent to every client to fail there.
 *
 * A projected cell or stream with a `projectionKey` is projected once per key and change, whatever the number of
 * connections watching it: every connection with that key is handed the very same frozen value (which the
 * transport then encodes once), and a projection that threw is remembered as withheld for that key alone.
 */
export function watchObject(
  exposure: AnyExposure,
  object: Record<string, unknown>,
  emit: (frame: WatchFrame) => void,
  viewer: RemoteViewer,
): () => void {
  const state: Record<string, CellSnapshot> = {};
  const sent = new Map<string, JsonValue>();
  const keys = new Map<string, string | undefined>();
  for (const [cell, schema] of Object.entries(exposure.state)) {
    const source = object[cell] as AuthoritativeState<JsonValue>;
    const key = keyOf(source, viewer);
    keys.set(cell, key);
    const { projection } = projectedState(source, source.revision, source.value, viewer, key);
    if (!projection.ok) throw new RemoteError('internal', `A state projection failed: ${projection.message}`);
    const value = projection.value as JsonValue;
    if (!conformsOnce(projection, schema))
      throw new RemoteError('invalid_result', `State "${cell}" breaks its contract`);
    state[cell] = { revision: source.revision, value };
    sent.set(cell, value);
  }
  const eventKeys = new Map<string, string | undefined>();
  for (const stream of Object.keys(exposure.events)) {
    eventKeys.set(stream, keyOf(object[stream] as AuthoritativeEvents<JsonValue>, viewer));
  }
  let seq = 0;
  const stops: Array<() => void> = [];
  for (const [cell, schema] of Object.entries(exposure.state)) {
    const source = object[cell] as AuthoritativeState<JsonValue>;
    const key = keys.get(cell);
    stops.push(
      source.observe((change) => {
        const { projection, fresh } = projectedState(source, change.revision, change.value, viewer, key);
        if (!projection.ok) {
          if (fresh) {
            process.emitWarning(
              `A projection of state "${cell}" threw; the change was withheld from the connections it was made for`,
              { code: 'PI_PROJECTION_ERROR' },
            );
          }
          return;
        }
        const value = projection.value as JsonValue;
        // A change this connection cannot see (outside its projection) is not a change for it.
        if (source.projectFor !== undefined && jsonEquals(value, sent.get(cell) as JsonValue)) return;
        if (!conformsOnce(projection, schema, `state "${cell}"`)) return;
        sent.set(cell, value);
        emit({ kind: 'state', seq: ++seq, cell, revision: change.revision, value, trace: change.carrier });
      }),
    );
  }
  for (const [stream, schema] of Object.entries(exposure.events)) {
    const source = object[stream] as AuthoritativeEvents<JsonValue>;
    const key = eventKeys.get(stream);
    stops.push(
      source.observe((emitted) => {
        const { projection, fresh } = projectedEvent(source, emitted, viewer, key);
        if (!projection.ok) {
          if (fresh) {
            process.emitWarning(
              'An event projection threw; the event was withheld from the connections it was made for',
              {
                code: 'PI_PROJECTION_ERROR',
              },
            );
          }
          return;
        }
        const event = projection.value;
        if (event === undefined || !conformsOnce(projection, schema, `events "${stream}"`)) return;
        emit({ kind: 'event', seq: ++seq, stream, event, trace: emitted.carrier });
      }),
    );
  }
  emit({ kind: 'snapshot', seq: 0, state });
  return () => {
    for (const stop of stops.splice(0)) stop();
  };
}

/**
 * What one projection made of a value: the frozen value to send (`undefined`: an event withheld), or the message of
 * the projection's throw. Shared by every connection with the same key, with the schemas it was checked against.
 */
type Projection =
  | { readonly ok: true; readonly value: JsonValue | undefined; readonly checked: Map<Schema<unknown>, boolean> }
  | { readonly ok: false; readonly message: string };

/** A projection for one connection, and whether it was made for it (false: shared from another with its key). */
interface Projected {
  readonly projection: Projection;
  readonly fresh: boolean;
}

/** Per keyed state cell, the projections of the revision last projected; the next revision's replace them. */
const stateProjections = new WeakMap<
  AuthoritativeState<JsonValue>,
  { readonly revision: number; readonly value: JsonValue; readonly byKey: Map<string, Projection> }
>();

/**
 * Per unprojected value (the same frozen object for every connection), its one projection: the value itself, so its
 * check against the contract is made once, not once per watching connection (a large catalogue, watched by every
 * presentation, was checked in full for each of them in the one step that published it).
 */
const unprojectedValues = new WeakMap<object, Projection>();

function unprojected(value: JsonValue): Projected {
  if (typeof value !== 'object' || value === null)
    return { projection: { ok: true, value, checked: new Map() }, fresh: true };
  const known = unprojectedValues.get(value);
  if (known !== undefined) return { projection: known, fresh: false };
  const projection: Projection = { ok: true, value, checked: new Map() };
  unprojectedValues.set(value, projection);
  return { projection, fresh: true };
}

/** Per emitted event of a keyed stream, its projections; they go with the event once every watcher has seen it. */
const eventProjections = new WeakMap<EmittedEvent<JsonValue>, Map<string, Projection>>();

/** The connection's projection key for a source, if it is projected by key. A key that throws fails the watch: the
 *  connection is shown nothing rather than what another key sees. */
function keyOf(
  source: { readonly projectFor: unknown; readonly projectionKey: ProjectionKey | undefined },
  viewer: RemoteViewer,
): string | undefined {
  if (source.projectFor === undefined || source.projectionKey === undefined) return undefined;
  try {
    return source.projectionKey(viewer);
  } catch (error) {
    throw new RemoteError('internal', `A projection key failed: ${messageOf(error)}`);
  }
}

/** The value one connection sees. A projection that throws shows the connection nothing new rather than
 *  everything: its bug must not widen what a caller may read. */
function projectedState(
  source: AuthoritativeState<JsonValue>,
  revision: number,
  value: JsonValue,
  viewer: RemoteViewer,
  key: string | undefined,
): Projected {
  const { projectFor } = source;
  if (projectFor === undefined) return unprojected(value);
  const project = () => attempt(() => detachJson(projectFor(value, viewer)));
  if (key === undefined) return { projection: project(), fresh: true };
  let cached = stateProjections.get(source);
  if (cached === undefined || cached.revision !== revision || cached.value !== value) {
    cached = { revision, value, byKey: new Map() };
    stateProjections.set(source, cached);
  }
  return shared(cached.byKey, key, project);
}

/** The event one connection is sent (`undefined`: none); a projection that throws withholds it. */
function projectedEvent(
  source: AuthoritativeEvents<JsonValue>,
  emitted: EmittedEvent<JsonValue>,
  viewer: RemoteViewer,
  key: string | undefined,
): Projected {
  const { projectFor } = source;
  if (projectFor === undefined) return unprojected(emitted.event);
  const project = () =>
    attempt(() => {
      const projected = projectFor(emitted.event, viewer);
      return projected === undefined ? undefined : detachJson(projected);
    });
  if (key === undefined) return { projection: project(), fresh: true };
  let byKey = eventProjections.get(emitted);
  if (byKey === undefined) {
    byKey = new Map();
    eventProjections.set(emitted, byKey);
  }
  return shared(byKey, key, project);
}

function shared(byKey: Map<string, Projection>, key: string, project: () => Projection): Projected {
  const known = byKey.get(key);
  if (known !== undefined) return { projection: known, fresh: false };
  const projection = project();
  byKey.set(key, projection);
  return { projection, fresh: true };
}

function attempt(project: () => JsonValue | undefined): Projection {
  try {
    return { ok: true, value: project(), checked: new Map() };
  } catch (error) {
    return { ok: false, message: messageOf(error) };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'error';
}

/** Whether a projection's value conforms to the schema, checked once per projection (and reported once) when it is
 *  shared; `what` names it in the warning (a snapshot's caller reports its own failure). */
function conformsOnce(projection: Projection & { ok: true }, schema: Schema<unknown>, what?: string): boolean {
  let result = projection.checked.get(schema);
  if (result === undefined) {
    // zod's answer without zod's output: the value is sent as it is, so building its parsed copy would be waste.
    result = schemaCheck(schema)(projection.value);
    projection.checked.set(schema, result);
    if (!result && what !== undefined) {
      process.emitWarning(`A value of ${what} breaks its contract and was not sent`, { code: 'PI_CONTRACT_VIOLATION' });
    }
  }
  return result;
}
