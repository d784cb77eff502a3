import { describe, expect, it } from 'vitest';
import { createRegistry } from './contribution-registry';

interface Tool {
  readonly description: string;
  readonly run: () => string;
}

const manifest = ['core', 'wrapper', 'extra'];

function toolRegistry(equals?: (left: Tool, right: Tool) => boolean) {
  return createRegistry<Tool, number>({
    name: 'tools',
    ownerRank: (owner) => manifest.indexOf(owner),
    build: (entries) => entries.size,
    ...(equals === undefined ? {} : { equals }),
  });
}

describe('rebuild diff', () => {
  it('reports added, removed and changed ids against the last good rebuild', () => {
    let description = 'list files';
    const registry = toolRegistry();
    registry.add('core', (draft) => {
      draft.set('ls', { description, run: () => 'ls' });
      draft.set('rm', { description: 'remove', run: () => 'rm' });
    });
    const removeExtra = registry.add('extra', (draft) => draft.set('cat', { description: 'print', run: () => 'cat' }));
    expect(registry.rebuild()._unsafeUnwrap()).toMatchObject({ added: ['ls', 'rm', 'cat'], removed: [], changed: [] });

    removeExtra();
    description = 'list a directory';
    registry.add('extra', (draft) => draft.set('grep', { description: 'search', run: () => 'grep' }));
    expect(registry.rebuild()._unsafeUnwrap()).toMatchObject({ added: ['grep'], removed: ['cat'], changed: ['ls'] });
  });

  it('reports nothing changed when an identical replay recreates its closures', () => {
    const registry = toolRegistry();
    registry.add('core', (draft) => draft.set('ls', { description: 'list', run: () => 'ls' }));
    registry.add('wrapper', (draft) => draft.wrap('ls', (inner) => ({ ...inner, run: () => `timed ${inner.run()}` })));
    registry.rebuild();
    expect(registry.rebuild()._unsafeUnwrap()).toMatchObject({ added: [], removed: [], changed: [] });
  });

  it('reports an entry changed when a wrapper around it is removed', () => {
    const registry = toolRegistry();
    registry.add('core', (draft) => draft.set('ls', { description: 'list', run: () => 'ls' }));
    const removeWrapper = registry.add('wrapper', (draft) => draft.wrap('ls', (inner) => inner));
    registry.rebuild();
    removeWrapper();
    expect(registry.rebuild()._unsafeUnwrap().changed).toEqual(['ls']);
  });

  it('uses the registry equals when one is given', () => {
    let version = 1;
    const registry = toolRegistry((left, right) => left.description.length === right.description.length);
    registry.add('core', (draft) => draft.set('ls', { description: `v${version}`, run: () => 'ls' }));
    registry.rebuild();
    version = 2;
    expect(registry.rebuild()._unsafeUnwrap().changed).toEqual([]);
    version = 10;
    expect(registry.rebuild()._unsafeUnwrap().changed).toEqual(['ls']);
  });
});
