import { describe, expect, it } from 'vitest';
import { freshRepo, newRecord, openRepo } from '../test/repo-fixture';

describe('two repositories on one file', () => {
  it('see each other’s writes', async () => {
    const { repo: first, file } = await freshRepo();
    const second = openRepo(file);
    await first.create({ ...newRecord(), sessionId: 's-1' });
    expect((await second.get('s-1'))?.title).toBe('Fix the parser');
    await second.rename('s-1', 'Renamed elsewhere');
    await second.setStatus('s-1', 'idle');
    expect(await first.get('s-1')).toMatchObject({ title: 'Renamed elsewhere', status: 'idle' });
    expect((await first.create({ ...newRecord(), sessionId: 's-1' }))._unsafeUnwrapErr().code).toBe('duplicate');
    await first.remove('s-1');
    expect(await second.list()).toEqual([]);
  });

  it('lose nothing under 20 concurrent create/remove pairs', async () => {
    const { repo: first, file } = await freshRepo();
    const second = openRepo(file);
    const pairs = Array.from({ length: 20 }, async (_, index) => {
      const [creator, remover] = index % 2 === 0 ? [first, second] : [second, first];
      const kept = await creator.create({ ...newRecord({ title: `kept ${index}` }), sessionId: `kept-${index}` });
      const dropped = await remover.create({ ...newRecord({ title: `dropped ${index}` }), sessionId: `drop-${index}` });
      const removed = await creator.remove(`drop-${index}`);
      return [kept.isOk(), dropped.isOk(), removed.isOk()];
    });
    expect((await Promise.all(pairs)).flat().every(Boolean)).toBe(true);

    const ids = (repo: typeof first) => repo.list().then((records) => records.map((record) => record.sessionId).sort());
    const expected = Array.from({ length: 20 }, (_, index) => `kept-${index}`).sort();
    expect(await ids(first)).toEqual(expected);
    expect(await ids(second)).toEqual(expected);
  });
});
