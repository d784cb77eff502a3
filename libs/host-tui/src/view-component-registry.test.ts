import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineView, type ViewComponent } from '@pi/plugin-api';
import { ViewComponentRegistry } from './view-component-registry';

const Panel = defineView('test.panel', { state: z.null(), message: z.null() });
const component = (label: string): ViewComponent<null, null> => ({
  definition: Panel,
  placement: 'header',
  create: () => ({ render: () => [label] }),
});

describe('ViewComponentRegistry', () => {
  it('uses the latest component for a name; removing it falls back to the one before, and only it', () => {
    const registry = new ViewComponentRegistry();
    const changes: string[] = [];
    registry.onChange(() => changes.push(registry.get('test.panel')?.owner ?? 'none'));
    const first = component('first');
    const second = component('second');
    const removeFirst = registry.add('@t/one', first as never);
    const removeSecond = registry.add('@t/two', second as never);
    expect(registry.get('test.panel')?.component).toBe(second);
    expect(registry.names()).toEqual(['test.panel']);

    removeFirst();
    expect(registry.get('test.panel')?.component).toBe(second);
    removeSecond();
    removeSecond();
    expect(registry.get('test.panel')).toBeUndefined();
    expect(registry.names()).toEqual([]);
    expect(changes).toEqual(['@t/one', '@t/two', '@t/two', 'none']);
  });
});
