import { describe, expect, it } from 'vitest';
import { memoryFleet, startTestCoordinatorFacets } from '@pi/host-coordinator/testing';
import {
  BACKGROUND_CONTEXT,
  CALLER_IDENTITY,
  sessionCallerIdentity,
  userCallerIdentity,
  withAbortSignal,
  withContextValue,
  type CallerIdentity,
  type FleetPluginScope,
} from '@pi/plugin-api';
import { workspaceIdOf } from '@pi/connection-files';
import { SESSION_DIRECTORY_PLUGIN_ID, SessionDirectory, type SessionDirectoryState } from '@pi/session-directory';
import { remoteErrorOf } from '@pi/test-support';
import sessionDirectoryCoordinatorFacet, { PROVISIONAL_TITLE } from './index';

const RED = workspaceIdOf('/projects/red');
const BLUE = workspaceIdOf('/projects/blue');

async function startDirectory(fleet: FleetPluginScope) {
  const { services, running } = await startTestCoordinatorFacets(
    [{ id: SESSION_DIRECTORY_PLUGIN_ID, facet: sessionDirectoryCoordinatorFacet }],
    fleet,
  );
  return { directory: services.use(SessionDirectory), running };
}

const as = (identity: CallerIdentity) => withContextValue(CALLER_IDENTITY, identity, BACKGROUND_CONTEXT);
const redSession = as(sessionCallerIdentity({ sessionId: 'red-1', workspaceId: RED }));
const user = as(userCallerIdentity('local-user'));
const seeded = (workspaceId: string, sessionId: string, cwd: string) => ({
  sessionId,
  title: sessionId,
  provisionalTitle: false,
  workspaceId,
  ownerId: 'local-user',
  cwd,
  status: 'idle' as const,
});

describe('the session directory on the coordinator', () => {
  it('lists the records it finds at activation', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    const { directory } = await startDirectory(memory.fleet);
    expect(directory.state.value.sessions.map((s) => s.sessionId)).toEqual(['red-1']);
  });

  it('creates a session in the calling session’s own workspace and directory, owned by its owner', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    const { directory } = await startDirectory(memory.fleet);
    const created = await directory.create({ title: 'second', workspaceId: RED }, redSession);
    expect(created).toMatchObject({ workspaceId: RED, cwd: '/projects/red', ownerId: 'local-user', status: 'idle' });
    expect(directory.state.value.sessions).toHaveLength(2);
  });

  it('refuses a session that creates in another workspace or directory, whatever the arguments claim', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    const { directory } = await startDirectory(memory.fleet);
    expect((await remoteErrorOf(directory.create({ title: 'x', workspaceId: BLUE }, redSession))).code).toBe(
      'not_authorized',
    );
    expect(
      (await remoteErrorOf(directory.create({ title: 'x', workspaceId: RED, cwd: '/projects/blue' }, redSession))).code,
    ).toBe('not_authorized');
    expect((await remoteErrorOf(directory.create({ title: 'x', workspaceId: RED }, BACKGROUND_CONTEXT))).code).toBe(
      'not_authorized',
    );
    expect(memory.records.size).toBe(1);
  });

  it('registers a session file the calling session forked, or one of its own workspace, under its id', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    memory.seedFile('f-123', { cwd: '/projects/red', workspaceId: RED, forkedFrom: 'red-1' });
    memory.seedFile('red-old', { cwd: '/projects/red', workspaceId: RED, forkedFrom: null });
    const { directory } = await startDirectory(memory.fleet);
    const adopted = await directory.create({ title: 'fork', workspaceId: RED, sessionId: 'f-123' }, redSession);
    expect(adopted).toMatchObject({ sessionId: 'f-123', workspaceId: RED, cwd: '/projects/red', status: 'idle' });
    const restored = await directory.create({ title: 'old', workspaceId: RED, sessionId: 'red-old' }, redSession);
    expect(restored).toMatchObject({ sessionId: 'red-old', workspaceId: RED });
    expect(
      (await remoteErrorOf(directory.create({ title: 'x', workspaceId: BLUE, sessionId: 'f-456' }, redSession))).code,
    ).toBe('not_authorized');
  });

  it('refuses a session another workspace’s session file, a live foreign record and a missing file alike', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    memory.seed(seeded(BLUE, 'blue-live', '/projects/blue'));
    // A removed blue session: its file stays on disk, its record is gone.
    memory.seedFile('blue-gone', { cwd: '/projects/blue', workspaceId: BLUE, forkedFrom: null });
    // A blue session's fork: forked by another session, in another workspace.
    memory.seedFile('blue-fork', { cwd: '/projects/blue', workspaceId: BLUE, forkedFrom: 'blue-live' });
    const { directory } = await startDirectory(memory.fleet);
    const answers = [];
    for (const sessionId of ['blue-gone', 'blue-fork', 'blue-live', 'never-was']) {
      const refused = await remoteErrorOf(
        directory.create({ title: 'takeover', workspaceId: RED, sessionId }, redSession),
      );
      answers.push({ code: refused.code, message: refused.message.replace(sessionId, '<id>') });
    }
    expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    expect(answers[0]).toEqual({ code: 'not_authorized', message: "No session <id> in the caller's workspace" });
    // The same answer resume and remove give for an id the caller cannot see.
    const resumed = await remoteErrorOf(directory.resume('blue-live', redSession));
    expect({ code: resumed.code, message: resumed.message.replace('blue-live', '<id>') }).toEqual(answers[0]);
    expect([...memory.records.keys()].sort()).toEqual(['blue-live', 'red-1']);
    expect(memory.records.get('blue-live')?.workspaceId).toBe(BLUE);
  });

  it('lets the user register any session file where it names', async () => {
    const memory = memoryFleet();
    memory.seedFile('blue-gone', { cwd: '/projects/blue', workspaceId: BLUE, forkedFrom: null });
    const { directory } = await startDirectory(memory.fleet);
    const adopted = await directory.create(
      { title: 'back', workspaceId: BLUE, cwd: '/projects/blue', sessionId: 'blue-gone' },
      user,
    );
    expect(adopted).toMatchObject({ sessionId: 'blue-gone', workspaceId: BLUE });
  });

  it('lets the user create anywhere, naming the directory its workspace belongs to', async () => {
    const { directory } = await startDirectory(memoryFleet().fleet);
    const created = await directory.create({ title: 'b', workspaceId: BLUE, cwd: '/projects/blue' }, user);
    expect(created).toMatchObject({ workspaceId: BLUE, ownerId: 'local-user' });
    expect((await remoteErrorOf(directory.create({ title: 'b', workspaceId: BLUE }, user))).code).toBe(
      'invalid_argument',
    );
    expect(
      (await remoteErrorOf(directory.create({ title: 'b', workspaceId: RED, cwd: '/projects/blue' }, user))).code,
    ).toBe('invalid_argument');
  });

  it('removes only sessions of the caller’s workspace, and never the caller itself', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    memory.seed(seeded(RED, 'red-2', '/projects/red'));
    memory.seed(seeded(BLUE, 'blue-1', '/projects/blue'));
    const { directory } = await startDirectory(memory.fleet);
    expect((await remoteErrorOf(directory.remove('blue-1', redSession))).code).toBe('not_authorized');
    expect((await remoteErrorOf(directory.remove('nope', redSession))).code).toBe('not_authorized');
    expect((await remoteErrorOf(directory.remove('red-1', redSession))).code).toBe('current_session');
    await directory.remove('red-2', redSession);
    expect([...memory.records.keys()].sort()).toEqual(['blue-1', 'red-1']);
    await directory.remove('blue-1', user);
    expect([...memory.records.keys()]).toEqual(['red-1']);
  });

  it('leaves nothing behind when a created session cannot start or the create is cancelled', async () => {
    const failing = memoryFleet('fail');
    const { directory } = await startDirectory(failing.fleet);
    await expect(directory.create({ title: 'x', workspaceId: BLUE, cwd: '/projects/blue' }, user)).rejects.toThrow(
      'no such program',
    );
    expect(failing.records.size).toBe(0);
    expect(directory.state.value.sessions).toEqual([]);

    const hanging = memoryFleet('hang');
    const started = await startDirectory(hanging.fleet);
    const abort = new AbortController();
    const creating = started.directory.create(
      { title: 'x', workspaceId: BLUE, cwd: '/projects/blue' },
      withAbortSignal(abort.signal, user),
    );
    abort.abort();
    await expect(creating).rejects.toThrow();
    expect(hanging.records.size).toBe(0);
  });

  it('follows process status changes with a changed event', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    memory.seed({ ...seeded(RED, 'red-2', '/projects/red'), status: 'closed' });
    const { directory } = await startDirectory(memory.fleet);
    const seen: string[] = [];
    directory.events.subscribe((event) => seen.push(event.type === 'deleted' ? 'deleted' : event.session.status));
    await directory.resume('red-2', redSession);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['idle']);
    expect(directory.state.value.sessions.find((s) => s.sessionId === 'red-2')?.status).toBe('idle');
  });

  it('names a session created without a title provisionally, until its first prompt’s suggestion', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    const { directory } = await startDirectory(memory.fleet);
    const created = await directory.create({ workspaceId: RED }, redSession);
    expect(created.title).toBe(PROVISIONAL_TITLE);
    expect(memory.records.get(created.sessionId)?.provisionalTitle).toBe(true);
    expect((await directory.create({ title: 'chosen', workspaceId: RED }, redSession)).title).toBe('chosen');

    const titles: string[] = [];
    directory.events.subscribe((event) => void (event.type === 'changed' && titles.push(event.session.title)));
    const newSession = as(sessionCallerIdentity({ sessionId: created.sessionId, workspaceId: RED }));
    expect((await directory.suggestTitle(created.sessionId, 'fix the parser', newSession)).title).toBe(
      'fix the parser',
    );
    expect((await directory.suggestTitle(created.sessionId, 'a later prompt', newSession)).title).toBe(
      'fix the parser',
    );
    expect(titles).toEqual(['fix the parser']);
  });

  it('renames a session of the caller’s workspace for good: a suggestion no longer replaces the name', async () => {
    const memory = memoryFleet();
    memory.seed({ ...seeded(RED, 'red-1', '/projects/red'), title: PROVISIONAL_TITLE, provisionalTitle: true });
    memory.seed(seeded(RED, 'red-2', '/projects/red'));
    memory.seed(seeded(BLUE, 'blue-1', '/projects/blue'));
    const { directory } = await startDirectory(memory.fleet);
    expect((await directory.rename('red-1', 'my name', redSession)).title).toBe('my name');
    expect(directory.state.value.sessions.find((s) => s.sessionId === 'red-1')?.title).toBe('my name');
    expect((await directory.suggestTitle('red-1', 'a prompt', redSession)).title).toBe('my name');
    expect((await directory.rename('red-2', 'the neighbour', redSession)).title).toBe('the neighbour');
    expect((await directory.rename('blue-1', 'anything', user)).title).toBe('anything');
  });

  it('refuses renaming outside the caller’s workspace, and a suggestion for another session', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    memory.seed({ ...seeded(RED, 'red-2', '/projects/red'), title: PROVISIONAL_TITLE, provisionalTitle: true });
    memory.seed(seeded(BLUE, 'blue-1', '/projects/blue'));
    const { directory } = await startDirectory(memory.fleet);
    expect((await remoteErrorOf(directory.rename('blue-1', 'mine now', redSession))).code).toBe('not_authorized');
    expect((await remoteErrorOf(directory.suggestTitle('red-2', 'mine', redSession))).code).toBe('not_authorized');
    expect((await remoteErrorOf(directory.rename('nope', 'x', user))).code).toBe('unknown_session');
    expect(memory.records.get('blue-1')?.title).toBe('blue-1');
    expect(memory.records.get('red-2')?.title).toBe(PROVISIONAL_TITLE);
  });

  it('projects its state per viewer: a session sees its workspace, the user sees all', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    memory.seed(seeded(BLUE, 'blue-1', '/projects/blue'));
    const { directory } = await startDirectory(memory.fleet);
    const project = (
      directory.state as unknown as { projectFor(v: SessionDirectoryState, viewer: unknown): SessionDirectoryState }
    ).projectFor;
    const forRed = project(directory.state.value, {
      clientId: 'c',
      caller: sessionCallerIdentity({ sessionId: 'red-1', workspaceId: RED }),
    });
    expect(forRed.sessions.map((s) => s.sessionId)).toEqual(['red-1']);
    const forUser = project(directory.state.value, { clientId: 'c', caller: userCallerIdentity('u') });
    expect(forUser.sessions).toHaveLength(2);
    expect(project(directory.state.value, { clientId: 'c', caller: undefined }).sessions).toEqual([]);
  });

  it('shares one projection among the connections of a workspace, one among the user’s, and none across them', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    memory.seed(seeded(BLUE, 'blue-1', '/projects/blue'));
    const { directory } = await startDirectory(memory.fleet);
    type Keyed = { projectionKey(viewer: unknown): string };
    const stateKey = (directory.state as unknown as Keyed).projectionKey;
    const eventsKey = (directory.events as unknown as Keyed).projectionKey;
    const session = (sessionId: string, workspaceId: string) => ({
      clientId: sessionId,
      caller: sessionCallerIdentity({ sessionId, workspaceId }),
    });
    const viewers = [
      session('red-1', RED),
      session('red-2', RED),
      session('blue-1', BLUE),
      { clientId: 'u1', caller: userCallerIdentity('local-user') },
      { clientId: 'u2', caller: userCallerIdentity('local-user') },
      { clientId: 'x', caller: undefined },
      { clientId: 'y', caller: { principal: 'odd', claims: { kind: 'session', workspaceId: 7 } } },
    ];
    const keys = viewers.map((viewer) => stateKey(viewer));
    expect(viewers.map((viewer) => eventsKey(viewer))).toEqual(keys);
    const [red1, red2, blue, user1, user2, nobody, odd] = keys;
    expect(red2).toBe(red1);
    expect(user2).toBe(user1);
    expect(odd).toBe(nobody);
    expect(new Set([red1, blue, user1, nobody]).size).toBe(4);
    // Equal keys see equal projections.
    const project = (
      directory.state as unknown as { projectFor(v: SessionDirectoryState, viewer: unknown): SessionDirectoryState }
    ).projectFor;
    const seen = viewers.map((viewer) => project(directory.state.value, viewer).sessions.map((s) => s.sessionId));
    expect(seen).toEqual([['red-1'], ['red-1'], ['blue-1'], ['red-1', 'blue-1'], ['red-1', 'blue-1'], [], []]);
  });
  it('follows changes another coordinator made in a shared store: newer records, removals, and a full re-read', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    const { directory } = await startDirectory(memory.fleet);
    const events: string[] = [];
    directory.events.subscribe((event) =>
      events.push(`${event.type} ${event.type === 'deleted' ? event.sessionId : event.session.title}`),
    );
    const record = (sessionId: string, title: string, updatedAt: string) => ({
      ...seeded(RED, sessionId, '/projects/red'),
      title,
      createdAt: 'then',
      updatedAt,
    });

    memory.elsewhere({ kind: 'changed', record: record('red-2', 'made elsewhere', '2026-03-01T10:00:01.000Z') });
    memory.elsewhere({ kind: 'changed', record: record('red-2', 'renamed elsewhere', '2026-03-01T10:00:02.000Z') });
    // Announced late, read back stale, or this directory's own change coming back: nothing changes.
    memory.elsewhere({ kind: 'changed', record: record('red-2', 'older', '2026-03-01T10:00:01.500Z') });
    memory.elsewhere({ kind: 'changed', record: record('red-2', 'renamed elsewhere', '2026-03-01T10:00:02.000Z') });
    memory.elsewhere({ kind: 'removed', sessionId: 'red-1', workspaceId: RED });
    memory.elsewhere({ kind: 'removed', sessionId: 'never-listed', workspaceId: RED });
    expect(events).toEqual(['created made elsewhere', 'changed renamed elsewhere', 'deleted red-1']);
    expect(directory.state.value.sessions.map((s) => [s.sessionId, s.title])).toEqual([['red-2', 'renamed elsewhere']]);

    // Changes may have been missed: the directory lists the store again.
    memory.seed(seeded(BLUE, 'blue-1', '/projects/blue'));
    memory.elsewhere({ kind: 'resync' });
    await expect.poll(() => directory.state.value.sessions.map((s) => s.sessionId).sort()).toEqual(['blue-1', 'red-2']);
  });

  it('stops a session and keeps its record; a session may not stop itself, nor one of another workspace', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    memory.seed(seeded(RED, 'red-2', '/projects/red'));
    memory.seed(seeded(BLUE, 'blue-1', '/projects/blue'));
    const { directory } = await startDirectory(memory.fleet);
    expect(await directory.stop('red-2', user)).toMatchObject({ sessionId: 'red-2', status: 'closed' });
    expect(memory.records.get('red-2')?.status).toBe('closed');
    expect((await remoteErrorOf(directory.stop('red-1', redSession))).code).toBe('current_session');
    expect((await remoteErrorOf(directory.stop('blue-1', redSession))).code).toBe('not_authorized');
    expect(memory.records.get('blue-1')?.status).toBe('idle');
  });

  it('says a session that is still running after the stop is running (another replica runs it, or it did not go)', async () => {
    const memory = memoryFleet();
    memory.seed(seeded(RED, 'red-1', '/projects/red'));
    const stubborn = { ...memory.fleet, processes: { ...memory.fleet.processes, stop: async () => undefined } };
    const { directory } = await startDirectory(stubborn);
    expect(await remoteErrorOf(directory.stop('red-1', user))).toMatchObject({
      code: 'session_running',
      message: 'Session red-1 is still idle: it runs through another coordinator, or did not stop when asked',
    });
  });
});
