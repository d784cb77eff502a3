import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { CodingAgentCoordinatorPluginContext } from '@pi/plugin-api';
import { SessionProcesses } from '@pi/session-processes';
import { openSqliteSessionRepo, type SessionRepo } from '@pi/session-repo';
import { eventually } from '@pi/test-support';
import { tokenAuthentication } from '@pi/transport-trpc';
import { startCoordinatorHost, type CoordinatorHost } from './index';

/** Everything a coordinator facet may hold. */
const CONTEXT_KEYS = [
  'config',
  'effect',
  'fleet',
  'interactions',
  'onActivate',
  'onClientConnect',
  'onClientDisconnect',
  'onDispose',
  'onService',
  'own',
  'pluginId',
  'provide',
  'remoteEvents',
  'remoteState',
  'tryUse',
  'use',
];

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function coordinatorContext(): Promise<{
  context: CodingAgentCoordinatorPluginContext;
  repo: SessionRepo;
  processes: SessionProcesses;
  directory: string;
}> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-coordinator-'));
  const repo = openSqliteSessionRepo({ file: join(directory, 'sessions.db') })._unsafeUnwrap();
  const processes = new SessionProcesses({
    command: () => ({ file: process.execPath, args: ['-e', 'setTimeout(() => {}, 60000)'] }),
    handoff: ({ sessionId, workspaceId }) => ({
      version: 1,
      socketPath: '/nowhere',
      credential: 'c',
      sessionId,
      workspaceId,
    }),
    logDir: join(directory, 'logs'),
    startTimeoutMs: 200,
  });
  let captured: CodingAgentCoordinatorPluginContext | undefined;
  const host: CoordinatorHost = (
    await startCoordinatorHost({
      facets: [{ id: '@t/curious', config: null, module: 'test', facet: (context) => void (captured = context) }],
      repo,
      processes,
      sessionFile: (sessionId) => join(directory, 'sessions', `${sessionId}.jsonl`),
      transport: { authenticate: tokenAuthentication('t', { principal: 'p', claims: {} }), keepAlive: false },
    })
  )._unsafeUnwrap();
  cleanup = async () => {
    await host.stop();
    await processes.stopAll();
    await repo.close();
    await rm(directory, { recursive: true, force: true });
  };
  return { context: captured as CodingAgentCoordinatorPluginContext, repo, processes, directory };
}

/** Every value reachable from `root` through own properties (functions included), to look for leaked authority. */
function reachable(root: unknown): unknown[] {
  const seen = new Set<unknown>();
  const walk = (value: unknown) => {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return;
    seen.add(value);
    for (const key of Reflect.ownKeys(value as object)) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      if (descriptor !== undefined && 'value' in descriptor) walk(descriptor.value);
    }
  };
  walk(root);
  return [...seen];
}

describe('what a coordinator facet can reach', () => {
  it('holds the providing capabilities and scoped fleet views, frozen, and nothing else', async () => {
    const { context } = await coordinatorContext();
    expect(Object.keys(context).sort()).toEqual(CONTEXT_KEYS);
    expect(Object.keys(context.fleet).sort()).toEqual(['files', 'processes', 'records']);
    expect(Object.keys(context.fleet.records).sort()).toEqual([
      'create',
      'get',
      'list',
      'onChanged',
      'remove',
      'rename',
      'suggestTitle',
    ]);
    expect(Object.keys(context.fleet.processes).sort()).toEqual(['onStatusChanged', 'start', 'stop']);
    expect(Object.keys(context.fleet.files)).toEqual(['origin']);
    for (const value of [context, context.fleet, context.fleet.records, context.fleet.processes, context.fleet.files]) {
      expect(Object.isFrozen(value)).toBe(true);
    }
  });

  it('cannot reach the repository, its database, the process manager or a pid', async () => {
    const { context, repo, processes } = await coordinatorContext();
    const everything = reachable(context);
    expect(everything).not.toContain(repo);
    expect(everything).not.toContain(processes);
    for (const value of everything) {
      expect(value?.constructor?.name).not.toMatch(/Database|SessionProcesses|Fleet|ChildProcess/);
    }
    for (const reserved of ['setStatus', 'close', 'adopt', 'pid', 'kill', 'stopAll', 'connected', 'presentations']) {
      expect(everything.some((value) => typeof value === 'object' && value !== null && reserved in value)).toBe(false);
    }
  });

  it('refuses to remove the record of a running session, and to start one it has no record of', async () => {
    const { context, repo, processes } = await coordinatorContext();
    const record = (await repo.create({ title: 't', workspaceId: 'w', ownerId: 'o', cwd: '/tmp' }))._unsafeUnwrap();
    // The stand-in session never connects: its start times out, and until then it is running.
    const starting = context.fleet.processes.start(record.sessionId, BACKGROUND_CONTEXT).catch((error) => error);
    await eventually(() => processes.status(record.sessionId) === 'starting');
    await expect(context.fleet.records.remove(record.sessionId, BACKGROUND_CONTEXT)).rejects.toMatchObject({
      code: 'session_running',
    });
    expect(await starting).toMatchObject({ code: 'start_failed' });
    await context.fleet.records.remove(record.sessionId, BACKGROUND_CONTEXT);
    await expect(context.fleet.processes.start('s-unknown', BACKGROUND_CONTEXT)).rejects.toMatchObject({
      code: 'unknown_session',
    });
  });

  it('reads whose a session file is, only inside the sessions directory, by a valid id', async () => {
    const { context, directory } = await coordinatorContext();
    await mkdir(join(directory, 'sessions'));
    const header = { type: 'session', version: 1, createdAt: 'then', cwd: '/projects/red' };
    await writeFile(join(directory, 'sessions', 's-1.jsonl'), `${JSON.stringify({ ...header, sessionId: 's-1' })}\n`);
    await writeFile(join(directory, 'x.jsonl'), `${JSON.stringify({ ...header, sessionId: '../x' })}\n`);
    expect(await context.fleet.files.origin('s-1', BACKGROUND_CONTEXT)).toMatchObject({ cwd: '/projects/red' });
    expect(await context.fleet.files.origin('../x', BACKGROUND_CONTEXT)).toBeUndefined();
    expect(await context.fleet.files.origin('s-2', BACKGROUND_CONTEXT)).toBeUndefined();
  });
});
