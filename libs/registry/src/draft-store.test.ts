import { describe, expect, it } from 'vitest';
import { cloneValue } from './clone-value';
import { createDraftStore } from './draft-store';

interface Settings {
  readonly tags: string[];
}

function store() {
  return createDraftStore<Settings>('settings', cloneValue);
}

describe('draft store', () => {
  it('hands update a fresh clone, leaving the stored value untouched', () => {
    const drafts = store();
    const original: Settings = { tags: ['a'] };
    const first = drafts.open('owner');
    first.draft.set('s', original);
    first.draft.update('s', (value) => value.tags.push('b'));
    first.commit();
    expect(original.tags).toEqual(['a']);
    expect(drafts.entries().get('s')?.value.tags).toEqual(['a', 'b']);
  });

  it('records a warning and changes nothing when update or wrap target a missing id', () => {
    const drafts = store();
    const transaction = drafts.open('@pi/metrics');
    transaction.draft.update('bash', () => undefined);
    transaction.draft.wrap('bash', (inner) => inner);
    transaction.commit();
    expect(drafts.entries().size).toBe(0);
    expect(drafts.warnings()).toEqual([
      { owner: '@pi/metrics', message: 'registry "settings": update of missing id "bash" was ignored' },
      { owner: '@pi/metrics', message: 'registry "settings": wrap of missing id "bash" was ignored' },
    ]);
  });

  it('keeps the position of a replaced id', () => {
    const transaction = store().open('owner');
    transaction.draft.set('a', { tags: [] });
    transaction.draft.set('b', { tags: [] });
    transaction.draft.set('a', { tags: ['again'] });
    expect(transaction.draft.ids()).toEqual(['a', 'b']);
  });

  it('rolls back every write and warning of a transaction', () => {
    const drafts = store();
    const first = drafts.open('first');
    first.draft.set('kept', { tags: [] });
    first.commit();
    const second = drafts.open('second');
    second.draft.delete('kept');
    second.draft.set('dropped', { tags: [] });
    second.draft.update('missing', () => undefined);
    second.rollback();
    expect([...drafts.entries().keys()]).toEqual(['kept']);
    expect(drafts.warnings()).toEqual([]);
  });

  it('refuses use of a draft after its transaction closed', () => {
    const transaction = store().open('late');
    transaction.commit();
    expect(() => transaction.draft.set('x', { tags: [] })).toThrow(/"late" was used after its contribution returned/);
    expect(() => transaction.draft.has('x')).toThrow(/must be synchronous/);
  });
});
