import { RemoteError } from './errors';
import type { AuthoritativeEvents } from './events';
import type { AnyExposure, Schema } from './exposure';
import { detachJson, jsonEquals, type JsonValue } from '@pi/json';
import type { CellSnapshot, WatchFrame } from './protocol';
import type { AuthoritativeState } from './state';
import type { RemoteViewer } from './viewer';

/**
 * Streams one object's exposed state and events: first an atomic snapshot of every cell, then each
 * change and event, numbered. Snapshot and subscription happen in one synchronous step, so no change
 * can fall between them and none is sent twice.
 *
 * Values are checked against the exposure before they leave, as call results are: a provider that breaks
 * its contract fails a new watch with `invalid_result`, and a later bad change or event is withheld (and
 * reported) rather than sent to every client to fail there.
 */
export function watchObject(
  exposure: AnyExposure,
  object: Record<string, unknown>,
  emit: (frame: WatchFrame) => void,
  viewer: RemoteViewer,
): () => void {
  const state: Record<string, CellSnapshot> = {};
  const sent = new Map<string, JsonValue>();
  for (const [cell, schema] of Object.entries(exposure.state)) {
    const source = object[cell] as AuthoritativeState<JsonValue>;
    const value = projectedState(source, source.value, viewer);
    if (!schema.safeParse(value).success)
      throw new RemoteError('invalid_result', `State "${cell}" breaks its contract`);
    state[cell] = { revision: source.revision, value };
    sent.set(cell, value);
  }
  let seq = 0;
  const stops: Array<() => void> = [];
  for (const [cell, schema] of Object.entries(exposure.state)) {
    const source = object[cell] as AuthoritativeState<JsonValue>;
    stops.push(
      source.observe((change) => {
        let value: JsonValue;
        try {
          value = projectedState(source, change.value, viewer);
        } catch {
          process.emitWarning(`A projection of state "${cell}" threw; the change was withheld from one connection`, {
            code: 'PI_PROJECTION_ERROR',
          });
          return;
        }
        // A change this connection cannot see (outside its projection) is not a change for it.
        if (source.projectFor !== undefined && jsonEquals(value, sent.get(cell) as JsonValue)) return;
        if (!conforms(schema, value, `state "${cell}"`)) return;
        sent.set(cell, value);
        emit({ kind: 'state', seq: ++seq, cell, revision: change.revision, value, trace: change.carrier });
      }),
    );
  }
  for (const [stream, schema] of Object.entries(exposure.events)) {
    const source = object[stream] as AuthoritativeEvents<JsonValue>;
    stops.push(
      source.observe((emitted) => {
        const event = source.projectFor === undefined ? emitted.event : projectedEvent(source, emitted.event, viewer);
        if (event === undefined || !conforms(schema, event, `events "${stream}"`)) return;
        emit({ kind: 'event', seq: ++seq, stream, event, trace: emitted.carrier });
      }),
    );
  }
  emit({ kind: 'snapshot', seq: 0, state });
  return () => {
    for (const stop of stops.splice(0)) stop();
  };
}

/** The value one connection sees. A projection that throws shows the connection nothing new rather than
 *  everything: its bug must not widen what a caller may read. */
function projectedState(source: AuthoritativeState<JsonValue>, value: JsonValue, viewer: RemoteViewer): JsonValue {
  if (source.projectFor === undefined) return value;
  try {
    return detachJson(source.projectFor(value, viewer));
  } catch (error) {
    throw new RemoteError('internal', `A state projection failed: ${error instanceof Error ? error.message : 'error'}`);
  }
}

function projectedEvent(
  source: AuthoritativeEvents<JsonValue>,
  event: JsonValue,
  viewer: RemoteViewer,
): JsonValue | undefined {
  try {
    const projected = source.projectFor?.(event, viewer);
    return projected === undefined ? undefined : detachJson(projected);
  } catch {
    process.emitWarning('An event projection threw; the event was withheld from one connection', {
      code: 'PI_PROJECTION_ERROR',
    });
    return undefined;
  }
}

function conforms(schema: Schema<unknown>, value: unknown, what: string): boolean {
  if (schema.safeParse(value).success) return true;
  process.emitWarning(`A value of ${what} breaks its contract and was not sent`, { code: 'PI_CONTRACT_VIOLATION' });
  return false;
}
