import { describe, expect, it } from 'vitest';
import { manualClock, newRecord, repoKinds } from '../test/repo-fixture';

const { kinds, skipped } = repoKinds();

if (skipped !== undefined)
  describe.skip(`SessionRepo contract on PostgreSQL: skipped, ${skipped}`, () => it('runs', () => undefined));

describe.each(kinds)('SessionRepo contract on $name', (kind) => {
  it('creates a closed record with the given id and reads it back', async () => {
    const clock = manualClock();
    const { repo } = await kind.fresh(clock.now);
    const created = (
      await repo.create({ ...newRecord({ title: '  Fix the parser  ' }), sessionId: 's-mine' })
    )._unsafeUnwrap();
    expect(created).toEqual({
      sessionId: 's-mine',
      title: 'Fix the parser',
      provisionalTitle: false,
      workspaceId: 'w-1',
      ownerId: 'user:alice',
      cwd: '/home/alice/project',
      status: 'closed',
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:00.000Z',
    });
    expect(await repo.get('s-mine')).toEqual(created);
    expect(await repo.get('s-other')).toBeUndefined();
  });

  it('generates ids like the session app does, dated by the clock', async () => {
    const { repo } = await kind.fresh(manualClock('2026-03-01T23:59:00.000Z').now);
    const ids = new Set<string>();
    for (let index = 0; index < 10; index += 1) ids.add((await repo.create(newRecord()))._unsafeUnwrap().sessionId);
    expect(ids.size).toBe(10);
    for (const id of ids) expect(id).toMatch(/^s-2026-03-01-[0-9a-f]{8}$/);
  });

  it('lists newest first (updatedAt, then id) and by workspace', async () => {
    const clock = manualClock();
    const { repo } = await kind.fresh(clock.now);
    await repo.create({ ...newRecord({ workspaceId: 'w-1' }), sessionId: 'b' });
    await repo.create({ ...newRecord({ workspaceId: 'w-2' }), sessionId: 'a' });
    clock.advance();
    await repo.create({ ...newRecord({ workspaceId: 'w-1' }), sessionId: 'c' });
    clock.advance();
    await repo.setStatus('b', 'active');

    expect((await repo.list()).map((record) => record.sessionId)).toEqual(['b', 'c', 'a']);
    expect((await repo.list({ workspaceId: 'w-1' })).map((record) => record.sessionId)).toEqual(['b', 'c']);
    expect(await repo.list({ workspaceId: 'w-none' })).toEqual([]);
  });

  it('renames, trimming the title and moving updatedAt only when it changes', async () => {
    const clock = manualClock();
    const { repo } = await kind.fresh(clock.now);
    await repo.create({ ...newRecord(), sessionId: 's-1' });
    clock.advance();
    const renamed = (await repo.rename('s-1', ' Ship it '))._unsafeUnwrap();
    expect(renamed).toMatchObject({ title: 'Ship it', updatedAt: '2026-03-01T10:00:01.000Z' });
    clock.advance();
    expect((await repo.rename('s-1', 'Ship it'))._unsafeUnwrap().updatedAt).toBe('2026-03-01T10:00:01.000Z');
    expect(await repo.get('s-1')).toEqual(renamed);
  });

  it('replaces a provisional title once by a suggestion; a chosen title stays', async () => {
    const clock = manualClock();
    const { repo } = await kind.fresh(clock.now);
    const placeholder = (
      await repo.create({ ...newRecord({ title: 'new session', provisionalTitle: true }), sessionId: 's-1' })
    )._unsafeUnwrap();
    expect(placeholder).toMatchObject({ title: 'new session', provisionalTitle: true });
    clock.advance();
    const suggested = (await repo.suggestTitle('s-1', ' fix the parser '))._unsafeUnwrap();
    expect(suggested).toMatchObject({
      title: 'fix the parser',
      provisionalTitle: false,
      updatedAt: '2026-03-01T10:00:01.000Z',
    });
    clock.advance();
    expect((await repo.suggestTitle('s-1', 'a later prompt'))._unsafeUnwrap()).toEqual(suggested);

    await repo.create({ ...newRecord({ title: 'chosen' }), sessionId: 's-2' });
    expect((await repo.suggestTitle('s-2', 'a prompt'))._unsafeUnwrap()).toMatchObject({
      title: 'chosen',
      provisionalTitle: false,
    });
    await repo.create({ ...newRecord({ title: 'new session', provisionalTitle: true }), sessionId: 's-3' });
    expect((await repo.rename('s-3', 'named'))._unsafeUnwrap()).toMatchObject({ provisionalTitle: false });
    expect((await repo.suggestTitle('s-3', 'a prompt'))._unsafeUnwrap().title).toBe('named');
    expect((await repo.suggestTitle('s-3', 'bad\ntitle'))._unsafeUnwrapErr().code).toBe('invalid');
  });

  it('sets the status, moving updatedAt only when the status changes', async () => {
    const clock = manualClock();
    const { repo } = await kind.fresh(clock.now);
    await repo.create({ ...newRecord(), sessionId: 's-1' });
    clock.advance();
    expect((await repo.setStatus('s-1', 'starting'))._unsafeUnwrap()).toMatchObject({
      status: 'starting',
      createdAt: '2026-03-01T10:00:00.000Z',
      updatedAt: '2026-03-01T10:00:01.000Z',
    });
    clock.advance();
    expect((await repo.setStatus('s-1', 'starting'))._unsafeUnwrap().updatedAt).toBe('2026-03-01T10:00:01.000Z');
    clock.advance();
    expect((await repo.setStatus('s-1', 'active'))._unsafeUnwrap().updatedAt).toBe('2026-03-01T10:00:03.000Z');
  });

  it('removes a record', async () => {
    const { repo } = await kind.fresh();
    await repo.create({ ...newRecord(), sessionId: 's-1' });
    expect((await repo.remove('s-1')).isOk()).toBe(true);
    expect(await repo.get('s-1')).toBeUndefined();
    expect(await repo.list()).toEqual([]);
  });

  it('refuses a taken id as duplicate and keeps the first record', async () => {
    const { repo } = await kind.fresh();
    const first = (await repo.create({ ...newRecord(), sessionId: 's-1' }))._unsafeUnwrap();
    const second = await repo.create({ ...newRecord({ title: 'Other' }), sessionId: 's-1' });
    expect(second._unsafeUnwrapErr()).toEqual({ code: 'duplicate', message: 'A session record s-1 already exists' });
    expect(await repo.get('s-1')).toEqual(first);
  });

  it('reports not_found for rename, suggestTitle, setStatus and remove of a missing record', async () => {
    const { repo } = await kind.fresh();
    for (const result of [
      await repo.rename('s-none', 'Title'),
      await repo.suggestTitle('s-none', 'Title'),
      await repo.setStatus('s-none', 'active'),
      await repo.remove('s-none'),
    ])
      expect(result._unsafeUnwrapErr()).toEqual({ code: 'not_found', message: 'No session record s-none' });
  });

  it('after close, answers every call with a storage error value (get and list reject)', async () => {
    const { repo } = await kind.fresh();
    await repo.create({ ...newRecord(), sessionId: 's-1' });
    await repo.close();
    await repo.close();
    for (const result of [
      await repo.create(newRecord()),
      await repo.rename('s-1', 'Title'),
      await repo.setStatus('s-1', 'active'),
      await repo.remove('s-1'),
    ])
      expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'storage', message: expect.stringMatching(/closed/) });
    await expect(repo.get('s-1')).rejects.toMatchObject({ name: 'SessionRepoReadError', code: 'storage' });
    await expect(repo.list()).rejects.toMatchObject({ name: 'SessionRepoReadError', code: 'storage' });
  });
  it('refuses a write that names a record older than the stored one as conflict, and leaves the record', async () => {
    const clock = manualClock();
    const { repo } = await kind.fresh(clock.now);
    const read = (await repo.create({ ...newRecord(), sessionId: 's-1' }))._unsafeUnwrap();
    clock.advance();
    const renamed = (await repo.rename('s-1', 'Theirs', read))._unsafeUnwrap();
    for (const stale of [
      await repo.rename('s-1', 'Mine', read),
      await repo.suggestTitle('s-1', 'Mine', read),
      await repo.setStatus('s-1', 'idle', read),
      await repo.remove('s-1', read),
    ])
      expect(stale._unsafeUnwrapErr()).toEqual({
        code: 'conflict',
        message: `Session record s-1 changed since it was read (updatedAt ${read.updatedAt}, now ${renamed.updatedAt})`,
      });
    expect(await repo.get('s-1')).toEqual(renamed);
    expect((await repo.setStatus('s-1', 'idle', renamed))._unsafeUnwrap().status).toBe('idle');
    expect((await repo.rename('s-none', 'Mine', read))._unsafeUnwrapErr().code).toBe('not_found');
  });

  it('moves updatedAt a millisecond past the last change when the clock has not moved, so a stale copy conflicts', async () => {
    const clock = manualClock();
    const { repo } = await kind.fresh(clock.now);
    const read = (await repo.create({ ...newRecord(), sessionId: 's-1' }))._unsafeUnwrap();
    const first = (await repo.setStatus('s-1', 'starting', read))._unsafeUnwrap();
    const second = (await repo.setStatus('s-1', 'idle', first))._unsafeUnwrap();
    expect([first.updatedAt, second.updatedAt]).toEqual(['2026-03-01T10:00:00.001Z', '2026-03-01T10:00:00.002Z']);
    expect((await repo.rename('s-1', 'Late', first))._unsafeUnwrapErr().code).toBe('conflict');
    expect((await repo.remove('s-1', second)).isOk()).toBe(true);
  });

  it('two repositories on one store see each other’s writes and lose nothing under 20 concurrent create/remove pairs', async () => {
    const { repo: first, reopen } = await kind.fresh();
    const second = await reopen();
    await first.create({ ...newRecord(), sessionId: 's-1' });
    await second.rename('s-1', 'Renamed elsewhere');
    expect(await first.get('s-1')).toMatchObject({ title: 'Renamed elsewhere' });
    expect((await first.create({ ...newRecord(), sessionId: 's-1' }))._unsafeUnwrapErr().code).toBe('duplicate');
    await first.remove('s-1');
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

  it('keeps the records across a reopen', async () => {
    const { repo, reopen } = await kind.fresh();
    const created = (await repo.create({ ...newRecord(), sessionId: 's-1' }))._unsafeUnwrap();
    const active = (await repo.setStatus('s-1', 'active'))._unsafeUnwrap();
    await repo.close();
    expect(await (await reopen()).get('s-1')).toEqual({ ...created, status: 'active', updatedAt: active.updatedAt });
  });
});
