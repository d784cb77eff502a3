import { describe, expect, it } from 'vitest';
import { createRegistry } from './contribution-registry';
import type { Draft } from './draft';

const manifest = ['a', 'b', 'c', 'd'];

function namesRegistry(build: (entries: ReadonlyMap<string, string>) => string[] = (entries) => [...entries.keys()]) {
  return createRegistry<string, string[]>({ name: 'names', ownerRank: (owner) => manifest.indexOf(owner), build });
}

describe('rebuild', () => {
  it('builds an empty draft before the first rebuild', () => {
    expect(namesRegistry().current()).toEqual([]);
  });

  it('replays owners in rank order and one owner in registration order', () => {
    const registry = namesRegistry();
    registry.add('b', (draft) => draft.set('b1', 'x'));
    registry.add('a', (draft) => draft.set('a1', 'x'));
    registry.add('b', (draft) => draft.set('b2', 'x'));
    expect(registry.rebuild()._unsafeUnwrap().state).toEqual(['a1', 'b1', 'b2']);
  });

  it('lets the later owner win a replacement', () => {
    const registry = createRegistry<string, string | undefined>({
      name: 'names',
      ownerRank: (owner) => manifest.indexOf(owner),
      build: (entries) => entries.get('model'),
    });
    registry.add('b', (draft) => draft.set('model', 'from b'));
    registry.add('a', (draft) => draft.set('model', 'from a'));
    expect(registry.rebuild()._unsafeUnwrap().state).toBe('from b');
  });

  it('skips a throwing contribution, discards its partial writes, and keeps the others', () => {
    const registry = namesRegistry();
    registry.add('a', (draft) => draft.set('read', 'x'));
    registry.add('b', (draft) => {
      draft.delete('read');
      draft.set('half-done', 'x');
      throw new Error('bad schema');
    });
    registry.add('c', (draft) => draft.set('write', 'x'));
    const rebuilt = registry.rebuild()._unsafeUnwrap();
    expect(rebuilt.state).toEqual(['read', 'write']);
    expect(rebuilt.errors).toEqual([{ owner: 'b', message: 'bad schema' }]);
  });

  it('rejects a contribution that returns a Promise and discards its writes', async () => {
    const registry = namesRegistry();
    let lateUse: Promise<unknown> = Promise.resolve();
    const asyncContribution = async (draft: Draft<string>): Promise<void> => {
      draft.set('sync-part', 'x');
      await Promise.resolve();
      draft.set('after-await', 'x');
    };
    registry.add('a', (draft) => {
      lateUse = asyncContribution(draft);
      return lateUse as unknown as undefined;
    });
    const rebuilt = registry.rebuild()._unsafeUnwrap();
    expect(rebuilt.state).toEqual([]);
    expect(rebuilt.errors[0]).toMatchObject({ owner: 'a', message: expect.stringContaining('must be synchronous') });
    await expect(lateUse).rejects.toThrow(/used after its contribution returned/);
  });

  it('refuses a rebuild from inside a contribution', () => {
    const registry = namesRegistry();
    let inner: unknown;
    registry.add('a', () => void (inner = registry.rebuild()));
    expect(registry.rebuild().isOk()).toBe(true);
    expect(inner).toMatchObject({ error: { code: 'reentrant_rebuild', registry: 'names' } });
  });

  it('refuses a rebuild from inside build', () => {
    let inner: unknown;
    const registry = namesRegistry(() => {
      inner = registry.rebuild();
      return [];
    });
    registry.rebuild();
    expect(inner).toMatchObject({ error: { code: 'reentrant_rebuild' } });
  });

  it('keeps the previous state when build throws, and diffs the next rebuild against it', () => {
    let refuse = false;
    const registry = namesRegistry((entries) => {
      if (refuse) throw new Error('duplicate tool name');
      return [...entries.keys()];
    });
    registry.add('a', (draft) => draft.set('kept', 'x'));
    registry.rebuild();
    refuse = true;
    const remove = registry.add('b', (draft) => draft.set('rejected', 'x'));
    const failed = registry.rebuild();
    expect(failed._unsafeUnwrapErr()).toMatchObject({
      code: 'build_failed',
      message: expect.stringContaining('duplicate tool name'),
    });
    expect(registry.current()).toEqual(['kept']);
    refuse = false;
    remove();
    expect(registry.rebuild()._unsafeUnwrap()).toMatchObject({ added: [], removed: [], changed: [] });
  });

  it('removes exactly the contribution whose remover was called, and a second call is harmless', () => {
    const registry = namesRegistry();
    const replays: string[] = [];
    const contribution = (owner: string) => (draft: Draft<string>) => {
      replays.push(owner);
      draft.set(owner, 'x');
    };
    registry.add('a', contribution('a'));
    const remove = registry.add('b', contribution('b'));
    registry.add('c', contribution('c'));
    remove();
    remove();
    expect(registry.rebuild()._unsafeUnwrap().state).toEqual(['a', 'c']);
    expect(replays).toEqual(['a', 'c']);
  });

  it('removes one registration of a function registered twice', () => {
    const registry = namesRegistry();
    let replays = 0;
    const counted = () => void (replays += 1);
    const remove = registry.add('a', counted);
    registry.add('a', counted);
    remove();
    registry.rebuild();
    expect(replays).toBe(1);
  });

  it('tells listeners about each successful rebuild until they unsubscribe', () => {
    const registry = namesRegistry();
    const seen: string[][] = [];
    const unsubscribe = registry.onRebuild((rebuilt) => void seen.push(rebuilt.state));
    registry.add('a', (draft) => draft.set('x', 'x'));
    registry.rebuild();
    unsubscribe();
    registry.rebuild();
    expect(seen).toEqual([['x']]);
  });

  it('refuses a rebuild from inside a listener', () => {
    const registry = namesRegistry();
    let inner: unknown;
    registry.onRebuild(() => void (inner = registry.rebuild()));
    registry.rebuild();
    expect(inner).toMatchObject({ error: { code: 'reentrant_rebuild' } });
  });
});
