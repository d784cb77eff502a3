import { RemoteError } from './errors';
import type { AuthoritativeEvents } from './events';
import type { AnyExposure, Schema } from './exposure';
import type { JsonValue } from '@pi/json';
import type { CellSnapshot, WatchFrame } from './protocol';
import type { AuthoritativeState } from './state';

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
): () => void {
  const state: Record<string, CellSnapshot> = {};
  for (const [cell, schema] of Object.entries(exposure.state)) {
    const source = object[cell] as AuthoritativeState<JsonValue>;
    if (!schema.safeParse(source.value).success)
      throw new RemoteError('invalid_result', `State "${cell}" breaks its contract`);
    state[cell] = { revision: source.revision, value: source.value };
  }
  let seq = 0;
  const stops: Array<() => void> = [];
  for (const [cell, schema] of Object.entries(exposure.state)) {
    const source = object[cell] as AuthoritativeState<JsonValue>;
    stops.push(
      source.observe((change) => {
        if (!conforms(schema, change.value, `state "${cell}"`)) return;
        emit({
          kind: 'state',
          seq: ++seq,
          cell,
          revision: change.revision,
          value: change.value,
          trace: change.carrier,
        });
      }),
    );
  }
  for (const [stream, schema] of Object.entries(exposure.events)) {
    const source = object[stream] as AuthoritativeEvents<JsonValue>;
    stops.push(
      source.observe((emitted) => {
        if (!conforms(schema, emitted.event, `events "${stream}"`)) return;
        emit({ kind: 'event', seq: ++seq, stream, event: emitted.event, trace: emitted.carrier });
      }),
    );
  }
  emit({ kind: 'snapshot', seq: 0, state });
  return () => {
    for (const stop of stops.splice(0)) stop();
  };
}

function conforms(schema: Schema<unknown>, value: unknown, what: string): boolean {
  if (schema.safeParse(value).success) return true;
  process.emitWarning(`A value of ${what} breaks its contract and was not sent`, { code: 'PI_CONTRACT_VIOLATION' });
  return false;
}
