import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { HarnessEvent } from '@pi/agent-contract';
import { HarnessEventHub } from './harness-events';

const delta = (text: string): HarnessEvent => ({ type: 'text_delta', operationId: 'op', delta: text });

function textsOf(heard: HarnessEvent[]): string[] {
  return heard.map((event) => (event.type === 'text_delta' ? event.delta : event.type));
}

describe('HarnessEventHub', () => {
  it('delivers each event to every listener, in the order they subscribed, past one that throws', () => {
    const hub = new HarnessEventHub();
    const order: string[] = [];
    hub.subscribe(() => order.push('first'));
    hub.subscribe(() => {
      throw new Error('a broken listener');
    });
    hub.subscribe(() => order.push('third'));
    hub.emit(delta('a'), BACKGROUND_CONTEXT);
    hub.emit(delta('b'), BACKGROUND_CONTEXT);
    expect(order).toEqual(['first', 'third', 'first', 'third']);
  });

  it('a listener added while an event is delivered hears the next event, not that one', () => {
    const hub = new HarnessEventHub();
    const late: HarnessEvent[] = [];
    let added = false;
    hub.subscribe(() => {
      if (!added) hub.subscribe((event) => late.push(event));
      added = true;
    });
    hub.emit(delta('a'), BACKGROUND_CONTEXT);
    hub.emit(delta('b'), BACKGROUND_CONTEXT);
    expect(textsOf(late)).toEqual(['b']);
  });

  it('a listener removed while an event is delivered still hears that event, and none after', () => {
    const hub = new HarnessEventHub();
    const heard: HarnessEvent[] = [];
    let remove: () => void = () => undefined;
    hub.subscribe(() => remove());
    remove = hub.subscribe((event) => heard.push(event));
    hub.emit(delta('a'), BACKGROUND_CONTEXT);
    hub.emit(delta('b'), BACKGROUND_CONTEXT);
    expect(textsOf(heard)).toEqual(['a']);
  });

  it('the same function subscribed twice is two subscriptions, and each disposer removes exactly its own', () => {
    const hub = new HarnessEventHub();
    const heard: HarnessEvent[] = [];
    const listener = (event: HarnessEvent) => heard.push(event);
    const removeFirst = hub.subscribe(listener);
    hub.subscribe(listener);
    hub.emit(delta('a'), BACKGROUND_CONTEXT);
    removeFirst();
    removeFirst();
    hub.emit(delta('b'), BACKGROUND_CONTEXT);
    expect(textsOf(heard)).toEqual(['a', 'a', 'b']);
  });
});
