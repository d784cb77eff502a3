import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { TickDeltas } from './tick-deltas';

/** A TickDeltas whose end of tick the test runs by hand, and what it emitted. */
function manualTick() {
  const ends: Array<() => void> = [];
  const emitted: Array<{ operationId: string; text: string; source: Context }> = [];
  const deltas = new TickDeltas(
    (operationId, text, source) => emitted.push({ operationId, text, source }),
    (flush) => ends.push(flush),
  );
  const endTick = () => {
    for (const end of ends.splice(0)) end();
  };
  return { deltas, emitted, ends, endTick };
}

const other: Context = { ...BACKGROUND_CONTEXT };

describe('tick deltas', () => {
  it('emits the deltas of one tick as one, at the end of the tick, under the first one’s context', () => {
    const { deltas, emitted, endTick } = manualTick();
    deltas.add('op', 'Hel', BACKGROUND_CONTEXT);
    deltas.add('op', 'lo', other);
    deltas.add('op', ' world', other);
    expect(emitted).toEqual([]);
    endTick();
    expect(emitted).toEqual([{ operationId: 'op', text: 'Hello world', source: BACKGROUND_CONTEXT }]);
    expect(emitted[0]?.source).toBe(BACKGROUND_CONTEXT);
  });

  it('emits a delta alone in its tick as it was, one per tick', () => {
    const { deltas, emitted, endTick } = manualTick();
    for (const text of ['a', 'b', 'c']) {
      deltas.add('op', text, BACKGROUND_CONTEXT);
      endTick();
    }
    expect(emitted.map((delta) => delta.text)).toEqual(['a', 'b', 'c']);
  });

  it('asks for one end of tick per tick, however many deltas it holds', () => {
    const { deltas, ends } = manualTick();
    for (let index = 0; index < 50; index += 1) deltas.add('op', 'x', BACKGROUND_CONTEXT);
    expect(ends).toHaveLength(1);
  });

  it('flush emits what is held at once, and the end of the tick then emits nothing more', () => {
    const { deltas, emitted, endTick } = manualTick();
    deltas.add('op', 'a', BACKGROUND_CONTEXT);
    deltas.add('op', 'b', BACKGROUND_CONTEXT);
    deltas.flush();
    expect(emitted.map((delta) => delta.text)).toEqual(['ab']);
    endTick();
    deltas.flush();
    expect(emitted.map((delta) => delta.text)).toEqual(['ab']);
  });

  it('a delta after a flush in the same tick is held again and leaves at the end of the tick', () => {
    const { deltas, emitted, endTick } = manualTick();
    deltas.add('op', 'a', BACKGROUND_CONTEXT);
    deltas.flush();
    deltas.add('op', 'b', BACKGROUND_CONTEXT);
    deltas.add('op', 'c', BACKGROUND_CONTEXT);
    endTick();
    expect(emitted.map((delta) => delta.text)).toEqual(['a', 'bc']);
  });

  it('never merges two runs: another run’s delta sends the held text first, in order', () => {
    const { deltas, emitted, endTick } = manualTick();
    deltas.add('a', '1', BACKGROUND_CONTEXT);
    deltas.add('a', '2', BACKGROUND_CONTEXT);
    deltas.add('b', '3', BACKGROUND_CONTEXT);
    deltas.add('a', '4', BACKGROUND_CONTEXT);
    endTick();
    expect(emitted.map(({ operationId, text }) => `${operationId}:${text}`)).toEqual(['a:12', 'b:3', 'a:4']);
  });

  it('by default a tick ends with process.nextTick: after the promise jobs of the tick, before the next turn', async () => {
    const emitted: string[] = [];
    const deltas = new TickDeltas(
      (_operationId, text) => emitted.push(text),
      (flush) => process.nextTick(flush),
    );
    // From here on in promise jobs, as a provider's stream events are after a socket read.
    await Promise.resolve();
    deltas.add('op', 'a', BACKGROUND_CONTEXT);
    await Promise.resolve();
    deltas.add('op', 'b', BACKGROUND_CONTEXT);
    await new Promise((resolve) => setImmediate(resolve));
    deltas.add('op', 'c', BACKGROUND_CONTEXT);
    await new Promise((resolve) => setImmediate(resolve));
    expect(emitted).toEqual(['ab', 'c']);
  });
});
