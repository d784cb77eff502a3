import { describe, expect, it } from 'vitest';
import { freshRepo, manualClock, newRecord } from '../test/repo-fixture';

describe('SqliteSessionRepo', () => {
  it('creates a closed record with the given id and reads it back', async () => {
    const clock = manualClock();
    const { repo } = await freshRepo(clock.now);
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
    const { repo } = await freshRepo(manualClock('2026-03-01T23:59:00.000Z').now);
    const ids = new Set<string>();
    for (let index = 0; index < 10; index += 1) ids.add((await repo.create(newRecord()))._unsafeUnwrap().sessionId);
    expect(ids.size).toBe(10);
    for (const id of ids) expect(id).toMatch(/^s-2026-03-01-[0-9a-f]{8}$/);
  });

  it('lists newest first (updatedAt, then id) and by workspace', async () => {
    const clock = manualClock();
    const { repo } = await freshRepo(clock.now);
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
    const { repo } = await freshRepo(clock.now);
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
    const { repo } = await freshRepo(clock.now);
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
    const { repo } = await freshRepo(clock.now);
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
    const { repo } = await freshRepo();
    await repo.create({ ...newRecord(), sessionId: 's-1' });
    expect((await repo.remove('s-1')).isOk()).toBe(true);
    expect(await repo.get('s-1')).toBeUndefined();
    expect(await repo.list()).toEqual([]);
  });

  it('refuses a taken id as duplicate and keeps the first record', async () => {
    const { repo } = await freshRepo();
    const first = (await repo.create({ ...newRecord(), sessionId: 's-1' }))._unsafeUnwrap();
    const second = await repo.create({ ...newRecord({ title: 'Other' }), sessionId: 's-1' });
    expect(second._unsafeUnwrapErr()).toEqual({ code: 'duplicate', message: 'A session record s-1 already exists' });
    expect(await repo.get('s-1')).toEqual(first);
  });

  it('reports not_found for rename, suggestTitle, setStatus and remove of a missing record', async () => {
    const { repo } = await freshRepo();
    for (const result of [
      await repo.rename('s-none', 'Title'),
      await repo.suggestTitle('s-none', 'Title'),
      await repo.setStatus('s-none', 'active'),
      await repo.remove('s-none'),
    ])
      expect(result._unsafeUnwrapErr()).toEqual({ code: 'not_found', message: 'No session record s-none' });
  });

  it('after close, answers every call with a storage error value (get and list reject)', async () => {
    const { repo } = await freshRepo();
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
});
