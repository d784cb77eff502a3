import { describe, expect, it } from 'vitest';
import { freshSchema, manualClock, newRecord, openPostgresRepo, withClient } from '../test/repo-fixture';
import { databaseUrl, testPostgres } from '@pi/test-support/postgres';
import type { SessionRecordChange } from './postgres-record-changes';
import { POSTGRES_SCHEMA_VERSION } from './postgres-migrations';
import { openPostgresSessionRepo } from './postgres-session-repo';

const postgres = testPostgres();
const url = postgres.available ? postgres.url : '';
const adminUrl = postgres.available ? postgres.adminUrl : '';

if (!postgres.available)
  describe.skip(`PostgreSQL session records: skipped, ${postgres.reason}`, () => it('runs', () => undefined));

describe.runIf(postgres.available)('PostgreSQL session records', () => {
  it('refuses a statement that sets no workspace, in the database itself, whatever its WHERE clause', async () => {
    const schema = freshSchema();
    const repo = await openPostgresRepo(schema);
    await repo.create({ ...newRecord({ workspaceId: 'w-1' }), sessionId: 's-1' });
    await repo.create({ ...newRecord({ workspaceId: 'w-2' }), sessionId: 's-2' });

    await withClient(url, async (client) => {
      await client.query(`SET search_path = ${schema}`);
      await expect(client.query('SELECT session_id FROM sessions')).rejects.toMatchObject({
        code: '42501',
        message: 'session records are read and written for one workspace, and pi.workspace is not set',
      });
      await expect(
        client.query(`INSERT INTO sessions VALUES ('s-3', 't', false, 'w-1', 'o', '/', 'closed', now(), now())`),
      ).rejects.toMatchObject({ code: '42501' });
      await client.query("SET pi.workspace = 'w-1'");
      const everything = await client.query("SELECT session_id FROM sessions WHERE workspace_id IN ('w-1', 'w-2')");
      expect(everything.rows).toEqual([{ session_id: 's-1' }]);
      await expect(
        client.query(`UPDATE sessions SET workspace_id = 'w-2' WHERE session_id = 's-1'`),
      ).rejects.toMatchObject({ code: '42501', message: expect.stringMatching(/row-level security/) });
    });
  });

  it('confined to one workspace, neither lists, reads, writes nor creates another workspace’s records', async () => {
    const schema = freshSchema();
    const fleet = await openPostgresRepo(schema);
    await fleet.create({ ...newRecord({ workspaceId: 'w-1' }), sessionId: 's-1' });
    await fleet.create({ ...newRecord({ workspaceId: 'w-2' }), sessionId: 's-2' });
    const mine = await openPostgresRepo(schema, { workspaceId: 'w-1' });

    expect((await mine.list()).map((record) => record.sessionId)).toEqual(['s-1']);
    expect(await mine.list({ workspaceId: 'w-2' })).toEqual([]);
    expect(await mine.get('s-2')).toBeUndefined();
    expect((await mine.rename('s-2', 'Taken over'))._unsafeUnwrapErr().code).toBe('not_found');
    expect((await mine.remove('s-2'))._unsafeUnwrapErr().code).toBe('not_found');
    expect((await mine.create({ ...newRecord({ workspaceId: 'w-2' }), sessionId: 's-3' }))._unsafeUnwrapErr()).toEqual({
      code: 'storage',
      message: expect.stringMatching(/row-level security/),
    });
    expect((await fleet.get('s-2'))?.title).toBe('Fix the parser');
    expect((await fleet.list()).map((record) => record.sessionId).sort()).toEqual(['s-1', 's-2']);
  });

  it('announces creations, changes and removals made through another repository, and not a write that changed nothing', async () => {
    const schema = freshSchema();
    const listening = await openPostgresRepo(schema);
    const writing = await openPostgresRepo(schema, { now: manualClock().now });
    const changes: SessionRecordChange[] = [];
    let removed: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      removed = resolve;
    });
    listening.shared.onChange((change) => {
      if (change.kind !== 'resync') changes.push(change);
      if (change.kind === 'removed') removed();
    });
    await listening.shared.listening();

    await writing.create({ ...newRecord({ workspaceId: 'w-9' }), sessionId: 's-1' });
    await writing.rename('s-1', 'Fix the parser');
    await writing.setStatus('s-1', 'idle');
    await writing.remove('s-1');
    await done;

    expect(changes).toEqual([
      { kind: 'created', sessionId: 's-1', workspaceId: 'w-9', updatedAt: '2026-03-01T10:00:00.000Z' },
      { kind: 'updated', sessionId: 's-1', workspaceId: 'w-9', updatedAt: '2026-03-01T10:00:00.001Z' },
      { kind: 'removed', sessionId: 's-1', workspaceId: 'w-9', updatedAt: '2026-03-01T10:00:00.001Z' },
    ]);
  });

  it('tells listeners to read again when listening begins, and again after its connection was lost and regained', async () => {
    const schema = freshSchema();
    const repo = await openPostgresRepo(schema);
    let resyncs = 0;
    const resynced = new Promise<SessionRecordChange>((resolve) =>
      repo.shared.onChange((change) => {
        if (change.kind === 'resync' && ++resyncs === 2) resolve(change);
      }),
    );
    await repo.shared.listening();
    expect(resyncs).toBe(1);
    await withClient(adminUrl, (client) =>
      client.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND pid <> pg_backend_pid()",
      ),
    );
    expect(await resynced).toEqual({ kind: 'resync' });
    const created = new Promise<SessionRecordChange>((resolve) => repo.shared.onChange(resolve));
    await repo.create({ ...newRecord(), sessionId: 's-after' });
    expect(await created).toMatchObject({ kind: 'created', sessionId: 's-after' });
  });

  it('migrates a schema once, even when two repositories open it at the same time', async () => {
    const schema = freshSchema();
    const clock = manualClock();
    const [first, second] = await Promise.all([
      openPostgresRepo(schema, { now: clock.now }),
      openPostgresRepo(schema, { now: clock.now }),
    ]);
    await first.create({ ...newRecord(), sessionId: 's-1' });
    expect(await second.get('s-1')).toBeDefined();
    const versions = await withClient(url, (client) =>
      client.query(`SELECT version, applied_at FROM ${schema}.schema_version ORDER BY version`),
    );
    expect(versions.rows).toEqual(
      Array.from({ length: POSTGRES_SCHEMA_VERSION }, (_, index) => ({
        version: index + 1,
        applied_at: new Date('2026-03-01T10:00:00.000Z'),
      })),
    );
  });

  it('refuses a schema made by a newer pi and leaves it untouched', async () => {
    const schema = freshSchema();
    await (await openPostgresRepo(schema)).close();
    const newer = POSTGRES_SCHEMA_VERSION + 1;
    await withClient(url, (client) => client.query(`INSERT INTO ${schema}.schema_version VALUES ($1, now())`, [newer]));
    const opened = await openPostgresSessionRepo({ url, schema });
    expect(opened._unsafeUnwrapErr()).toEqual({
      code: 'storage',
      message: expect.stringContaining(`were made by a newer pi (schema version ${newer}; this pi knows up to`),
    });
    const versions = await withClient(url, (client) =>
      client.query(`SELECT MAX(version) AS v FROM ${schema}.schema_version`),
    );
    expect(versions.rows[0]).toEqual({ v: newer });
  });

  it('refuses a role that row-level security does not apply to', async () => {
    const opened = await openPostgresSessionRepo({ url: adminUrl, schema: freshSchema() });
    expect(opened._unsafeUnwrapErr()).toMatchObject({
      code: 'storage',
      message: expect.stringMatching(/superuser or bypasses row-level security/),
    });
  });

  it('reports a bad URL, a server that is down and a database that does not exist, each in one sentence', async () => {
    expect((await openPostgresSessionRepo({ url: 'mysql://localhost/x' }))._unsafeUnwrapErr()).toEqual({
      code: 'storage',
      message: 'The database URL must look like postgres://user@host:port/database',
    });
    const down = await openPostgresSessionRepo({ url: 'postgres://pi@127.0.0.1:1/records', connectTimeoutMs: 2000 });
    expect(down._unsafeUnwrapErr()).toEqual({
      code: 'storage',
      message: expect.stringMatching(/^Cannot reach PostgreSQL at 127\.0\.0\.1:1\/records: /),
    });
    const missing = await openPostgresSessionRepo({ url: databaseUrl(url, 'no_such_database') });
    expect(missing._unsafeUnwrapErr().message).toMatch(/no_such_database.*does not exist/);
    expect((await openPostgresSessionRepo({ url, schema: 'Bad-Name' }))._unsafeUnwrapErr().message).toMatch(
      /schema name "Bad-Name" is not allowed/,
    );
  });

  it('keeps where the replicas serve: announced, refreshed, withdrawn, and dropped once not seen for a while', async () => {
    const schema = freshSchema();
    const first = await openPostgresRepo(schema);
    const second = await openPostgresRepo(schema);
    await first.shared.replicas.announce('wss://a.internal:7443/');
    await second.shared.replicas.announce('wss://b.internal:7443/');
    await second.shared.replicas.announce('wss://b.internal:7443/'); // a heartbeat
    expect((await first.shared.replicas.list(60_000))._unsafeUnwrap()).toEqual([
      'wss://a.internal:7443/',
      'wss://b.internal:7443/',
    ]);
    await second.shared.replicas.withdraw('wss://b.internal:7443/');
    expect((await first.shared.replicas.list(60_000))._unsafeUnwrap()).toEqual(['wss://a.internal:7443/']);

    // A replica that died stops being listed once its last announcement is older than the window.
    await withClient(url, (client) =>
      client.query(`UPDATE ${schema}.replicas SET seen_at = now() - interval '2 minutes'`),
    );
    expect((await first.shared.replicas.list(60_000))._unsafeUnwrap()).toEqual([]);
    expect((await first.shared.replicas.list(180_000))._unsafeUnwrap()).toEqual(['wss://a.internal:7443/']);
  });

  it('keeps where a session serves for one workspace; a clear by a replica the session has left changes nothing', async () => {
    const schema = freshSchema();
    const first = await openPostgresRepo(schema);
    const second = await openPostgresRepo(schema);
    const address = { sessionId: 's-1', workspaceId: 'w-1', url: 'wss://build-7:7444/' };
    (await first.shared.addresses.set(address, 'replica-a'))._unsafeUnwrap();
    expect((await second.shared.addresses.get('s-1'))._unsafeUnwrap()).toBe('wss://build-7:7444/');
    // It reconnected to the second replica, and the first noticed its old connection gone only then.
    (await second.shared.addresses.set({ ...address, url: 'wss://build-7:7445/' }, 'replica-b'))._unsafeUnwrap();
    (await first.shared.addresses.clear('s-1', 'replica-a'))._unsafeUnwrap();
    expect((await first.shared.addresses.get('s-1'))._unsafeUnwrap()).toBe('wss://build-7:7445/');
    (await second.shared.addresses.clear('s-1', 'replica-b'))._unsafeUnwrap();
    expect((await first.shared.addresses.get('s-1'))._unsafeUnwrap()).toBeUndefined();

    // Another workspace's repository neither sees it nor writes it.
    (await first.shared.addresses.set(address, 'replica-a'))._unsafeUnwrap();
    const other = await openPostgresRepo(schema, { workspaceId: 'w-2' });
    expect((await other.shared.addresses.get('s-1'))._unsafeUnwrap()).toBeUndefined();
    expect((await other.shared.addresses.set({ ...address, url: 'wss://evil:1/' }, 'x'))._unsafeUnwrapErr().code).toBe(
      'storage',
    );
    expect((await first.shared.addresses.set({ ...address, url: 'ws://plain:1/' }, 'x'))._unsafeUnwrapErr().code).toBe(
      'invalid',
    );
  });

  it('announces a stop request to every repository listening, and refuses an id that is not one', async () => {
    const schema = freshSchema();
    const asking = await openPostgresRepo(schema);
    const running = await openPostgresRepo(schema);
    const heard: SessionRecordChange[] = [];
    running.shared.onChange((change) => heard.push(change));
    await running.shared.listening();
    (await asking.shared.requestStop('s-elsewhere'))._unsafeUnwrap();
    await expect
      .poll(() => heard.filter((change) => change.kind !== 'resync'))
      .toEqual([{ kind: 'stop_requested', sessionId: 's-elsewhere' }]);
    expect((await asking.shared.requestStop('../x'))._unsafeUnwrapErr().code).toBe('invalid');
  });

  it('refuses a replica URL that is not ws:// or wss://, and a window that is not positive', async () => {
    const repo = await openPostgresRepo(freshSchema());
    for (const bad of ['https://a/', 'wss://', `wss://${'a'.repeat(2048)}`])
      expect((await repo.shared.replicas.announce(bad))._unsafeUnwrapErr().code, bad).toBe('invalid');
    expect((await repo.shared.replicas.list(0))._unsafeUnwrapErr().code).toBe('invalid');
  });

  it('carries the record operations and close, and says it is shared: the change announcements, replicas and addresses, nothing else', async () => {
    const repo = await openPostgresRepo(freshSchema());
    expect(Object.keys(repo).sort()).toEqual([
      'close',
      'create',
      'get',
      'list',
      'remove',
      'rename',
      'setStatus',
      'shared',
      'suggestTitle',
    ]);
    expect(Object.keys(repo.shared).sort()).toEqual(['addresses', 'listening', 'onChange', 'replicas', 'requestStop']);
  });
});
