import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ok, type Result } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import type { CodingAgentCoordinatorPluginContext } from '@pi/plugin-api';
import { openSqliteSessionRepo, type SessionRepo } from '@pi/session-repo';
import { eventually } from '@pi/test-support';
import { tokenAuthentication } from '@pi/transport-trpc';
import { startCoordinatorHost, type SessionProcessControl } from './index';

/** Processes whose starts wait until the test lets them through, counting how many were asked to start. */
function heldProcesses() {
  const waiting: Array<() => void> = [];
  const started: string[] = [];
  const control: SessionProcessControl = {
    start: (launch) =>
      new Promise<Result<void, never>>((resolve) => {
        started.push(launch.sessionId);
        waiting.push(() => resolve(ok(undefined)));
      }),
    stop: async () => undefined,
    status: () => 'closed',
    onStatusChanged: () => () => undefined,
    connected: () => undefined,
    presentations: () => undefined,
    disconnected: () => undefined,
  };
  return { control, started, releaseOne: () => waiting.shift()?.() };
}

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function start(processes: SessionProcessControl): Promise<{
  context: CodingAgentCoordinatorPluginContext;
  repo: SessionRepo;
}> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-slots-'));
  const repo = openSqliteSessionRepo({ file: join(directory, 'sessions.db') })._unsafeUnwrap();
  let captured: CodingAgentCoordinatorPluginContext | undefined;
  const host = (
    await startCoordinatorHost({
      facets: [{ id: '@t/starter', config: null, module: 'test', facet: (context) => void (captured = context) }],
      repo,
      processes,
      sessionFile: (sessionId) => join(directory, 'sessions', `${sessionId}.jsonl`),
      transport: { authenticate: tokenAuthentication('t', { principal: 'p', claims: {} }), keepAlive: false },
      maxConcurrentStarts: 2,
    })
  )._unsafeUnwrap();
  cleanup = async () => {
    await host.stop();
    await repo.close();
    await rm(directory, { recursive: true, force: true });
  };
  return { context: captured as CodingAgentCoordinatorPluginContext, repo };
}

describe('starting many sessions at once', () => {
  it('lets only so many processes start at a time; the rest wait their turn, and a cancelled wait hands it on', async () => {
    const held = heldProcesses();
    const { context, repo } = await start(held.control);
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) {
      ids.push(
        (await repo.create({ title: `t${index}`, workspaceId: 'w', ownerId: 'o', cwd: '/tmp' }))._unsafeUnwrap()
          .sessionId,
      );
    }
    const abort = new AbortController();
    const starts = ids.map((id, index) =>
      context.fleet.processes
        .start(id, index === 2 ? withAbortSignal(abort.signal, BACKGROUND_CONTEXT) : BACKGROUND_CONTEXT)
        .then(
          () => 'started',
          (error: { code?: string }) => error.code,
        ),
    );
    await eventually(() => held.started.length === 2);
    abort.abort();
    expect(await starts[2]).toBe('cancelled');
    held.releaseOne();
    await eventually(() => held.started.length === 3);
    expect(held.started).toEqual([ids[0], ids[1], ids[3]]);
    held.releaseOne();
    held.releaseOne();
    expect(await Promise.all([starts[0], starts[1], starts[3]])).toEqual(['started', 'started', 'started']);
  });
});
