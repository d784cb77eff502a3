import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkApiVersion, pluginMetadataSchema } from '@pi/plugin-api';
import { TODO_PLUGIN_ID } from './plugin';
import { TodoPanel } from './todo-panel';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

describe('@pi/todo contract', () => {
  it('is named by its plugin id and carries plugin metadata this pi accepts', () => {
    expect(packageJson.name).toBe(TODO_PLUGIN_ID);
    const metadata = pluginMetadataSchema.parse(packageJson.pi);
    expect(checkApiVersion(metadata.apiVersion).isOk()).toBe(true);
    for (const [host, facetPackage] of Object.entries(metadata.facets)) {
      expect(facetPackage, `the ${host} facet`).toBe(`${TODO_PLUGIN_ID}-${host}`);
    }
  });

  it('declares the panel view: a list of numbered entries, and no messages from clients', () => {
    expect(TodoPanel.component).toBe('todo.panel');
    expect(TodoPanel.state.safeParse({ items: [{ id: 1, text: 'a', done: false }], nextId: 2 }).success).toBe(true);
    expect(TodoPanel.state.safeParse({ items: [{ id: 0, text: '', done: false }], nextId: 1 }).success).toBe(false);
    expect(TodoPanel.message.safeParse({ anything: true }).success).toBe(false);
  });
});
