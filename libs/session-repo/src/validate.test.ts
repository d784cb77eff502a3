import { describe, expect, it } from 'vitest';
import type { SessionStatus } from '@pi/plugin-api';
import { freshRepo, newRecord } from '../test/repo-fixture';

describe('SessionRepo input checks', () => {
  it.each([
    ['an empty title', { title: '   ' }, /title must not be empty/],
    ['a title over 200 characters', { title: 'x'.repeat(201) }, /title must be at most 200/],
    ['a title with a control character', { title: 'one\ntwo' }, /control characters/],
    ['an empty workspaceId', { workspaceId: '' }, /workspaceId must be a non-empty string/],
    ['a workspaceId over 200 characters', { workspaceId: 'w'.repeat(201) }, /workspaceId must be at most 200/],
    ['an empty ownerId', { ownerId: '' }, /ownerId must be a non-empty string/],
    ['an ownerId over 200 characters', { ownerId: 'o'.repeat(201) }, /ownerId must be at most 200/],
    ['a relative cwd', { cwd: 'project' }, /cwd must be an absolute path/],
  ])('refuses %s as invalid and stores nothing', async (_case, overrides, message) => {
    const { repo } = await freshRepo();
    const created = await repo.create(newRecord(overrides));
    expect(created._unsafeUnwrapErr()).toMatchObject({ code: 'invalid', message: expect.stringMatching(message) });
    expect(await repo.list()).toEqual([]);
  });

  it('accepts a title of exactly 200 characters after trimming', async () => {
    const { repo } = await freshRepo();
    const created = await repo.create(newRecord({ title: ` ${'x'.repeat(200)} ` }));
    expect(created._unsafeUnwrap().title).toHaveLength(200);
  });

  it.each(['', '-leading-dash', 'has space', 'slash/id', 'x'.repeat(65), '../escape'])(
    'refuses the session id %j as invalid',
    async (sessionId) => {
      const { repo } = await freshRepo();
      const created = await repo.create({ ...newRecord(), sessionId });
      expect(created._unsafeUnwrapErr()).toMatchObject({
        code: 'invalid',
        message: expect.stringMatching(/sessionId/),
      });
    },
  );

  it('accepts a 64-character session id of letters, digits, "_" and "-"', async () => {
    const { repo } = await freshRepo();
    const sessionId = `A9_-${'z'.repeat(60)}`;
    expect((await repo.create({ ...newRecord(), sessionId }))._unsafeUnwrap().sessionId).toBe(sessionId);
  });

  it('refuses an invalid title on rename and an unknown status on setStatus, leaving the record as it was', async () => {
    const { repo } = await freshRepo();
    const record = (await repo.create({ ...newRecord(), sessionId: 's-1' }))._unsafeUnwrap();
    expect((await repo.rename('s-1', '\u0007bell'))._unsafeUnwrapErr().code).toBe('invalid');
    const status = 'running' as SessionStatus;
    expect((await repo.setStatus('s-1', status))._unsafeUnwrapErr()).toMatchObject({
      code: 'invalid',
      message: 'status must be one of starting, active, idle, closed',
    });
    expect(await repo.get('s-1')).toEqual(record);
  });

  it('refuses a malformed session id on rename, setStatus and remove as invalid', async () => {
    const { repo } = await freshRepo();
    for (const result of [
      await repo.rename('no spaces', 'Title'),
      await repo.setStatus('no spaces', 'active'),
      await repo.remove('no spaces'),
    ])
      expect(result._unsafeUnwrapErr()).toMatchObject({ code: 'invalid', message: expect.stringMatching(/sessionId/) });
    expect(await repo.get('no spaces')).toBeUndefined();
  });
});
