import type { AuthoritativeEvents } from './events';
import type { AnyExposure } from './exposure';
import type { JsonValue } from './json';
import type { CellSnapshot, WatchFrame } from './protocol';
import type { AuthoritativeState } from './state';

/**
 * Streams one object's exposed state and events: first an atomic snapshot of every cell, then each
 * change and event, numbered. Snapshot and subscription happen in one synchronous step, so no change
 * can fall between them and none is sent twice.
 */
export function watchObject(exposure: AnyExposure, object: Record<string, unknown>, emit: (frame: WatchFrame) => void): () => void {
  let seq = 0;
  const state: Record<string, CellSnapshot> = {};
  const stops: Array<() => void> = [];
  for (const cell of Object.keys(exposure.state)) {
    const source = object[cell] as AuthoritativeState<JsonValue>;
    state[cell] = { revision: source.revision, value: source.value };
    stops.push(
      source.observe((change) =>
        emit({ kind: 'state', seq: ++seq, cell, revision: change.revision, value: change.value, trace: change.carrier }),
      ),
    );
  }
  for (const stream of Object.keys(exposure.events)) {
    const source = object[stream] as AuthoritativeEvents<JsonValue>;
    stops.push(source.observe((emitted) => emit({ kind: 'event', seq: ++seq, stream, event: emitted.event, trace: emitted.carrier })));
  }
  emit({ kind: 'snapshot', seq: 0, state });
  return () => {
    for (const stop of stops.splice(0)) stop();
  };
}
