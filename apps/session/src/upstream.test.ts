import { openSync, closeSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceIdOf } from '@pi/connection-files';
import type { CoordinatorUpstream } from '@pi/host-session';
import type { ConnectionState } from '@pi/remote';
import { logUpstreamHealth, upstreamFromHandoff } from './upstream';

let directory: string | undefined;
afterEach(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  directory = undefined;
});

/** A descriptor holding `content`, as the coordinator's pipe would (a regular file reads the same way). */
async function handoffFd(content: unknown): Promise<number> {
  directory ??= await mkdtemp(join(tmpdir(), 'pi-handoff-'));
  const file = join(directory, `handoff-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, typeof content === 'string' ? content : `${JSON.stringify(content)}\n`);
  return openSync(file, 'r');
}

const CWD = '/projects/red';
const valid = {
  version: 1,
  socketPath: '/run/pi/coordinator.sock',
  credential: 'c.mac',
  sessionId: 's-1',
  workspaceId: workspaceIdOf(CWD),
};

describe('the upstream a coordinator hands a session', () => {
  it('connects (lazily) to the socket the handoff names, for this very session', async () => {
    const { upstream, credential } = (await upstreamFromHandoff(await handoffFd(valid), 's-1', CWD))._unsafeUnwrap();
    expect(upstream.available).toBe(true);
    expect(credential).toBe('c.mac');
    upstream.close();
  });

  it('refuses a handoff for another session or another workspace, naming what is wrong but not the credential', async () => {
    const other = (await upstreamFromHandoff(await handoffFd(valid), 's-2', CWD))._unsafeUnwrapErr();
    expect(other).toMatch(/names session s-1, not s-2/);
    const elsewhere = (await upstreamFromHandoff(await handoffFd(valid), 's-1', '/projects/blue'))._unsafeUnwrapErr();
    expect(elsewhere).toMatch(/another workspace/);
    for (const message of [other, elsewhere]) expect(message).not.toContain('c.mac');
  });

  it('refuses a descriptor that holds no handoff, in one line naming the descriptor', async () => {
    const fd = await handoffFd('not json');
    expect((await upstreamFromHandoff(fd, 's-1', CWD))._unsafeUnwrapErr()).toMatch(
      /^The coordinator's handoff on fd \d+: /,
    );
    const closed = await handoffFd(valid);
    closeSync(closed);
    expect((await upstreamFromHandoff(closed, 's-1', CWD))._unsafeUnwrapErr()).toMatch(/handoff on fd/);
  });
});

describe('logUpstreamHealth', () => {
  it('says why the coordinator cannot be reached once per reason, and when it is reached again', () => {
    const listeners: Array<(state: ConnectionState) => void> = [];
    const upstream = {
      connection: {
        subscribe: (listener: (state: ConnectionState) => void) => {
          listeners.push(listener);
          return () => listeners.splice(listeners.indexOf(listener), 1);
        },
      },
    } as unknown as CoordinatorUpstream;
    const lines: string[] = [];
    const stop = logUpstreamHealth(upstream, (line) => lines.push(line));
    const emit = (state: ConnectionState) => listeners.forEach((listener) => listener(state));
    const refusedCertificate: ConnectionState = {
      status: 'disconnected',
      reason: { code: 'disconnected', message: 'untrusted' },
      retrying: true,
    };
    emit({ status: 'connected', epoch: 1 });
    emit(refusedCertificate);
    emit({ status: 'connecting', attempt: 2 });
    emit(refusedCertificate);
    emit({ status: 'connected', epoch: 2 });
    emit({ status: 'disconnected', reason: { code: 'not_authorized', message: 'Wrong token' }, retrying: false });
    stop();
    emit(refusedCertificate);
    expect(lines).toEqual(['cannot reach the coordinator: untrusted; trying again', 'reached the coordinator']);
  });
});
