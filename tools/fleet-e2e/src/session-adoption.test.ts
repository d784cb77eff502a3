import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { SessionDirectory } from '@pi/session-directory';
import { TRANSPORTS, remoteErrorOf } from '@pi/test-support';
import { BLUE_ONE, RED, SELF, startChain, writeSessionFile, type Chain, type Presentation } from './chain';

const ids = (sessions: readonly { sessionId: string }[]) => sessions.map((s) => s.sessionId).sort();

describe.each(TRANSPORTS)('registering an existing session file through the chain over %s', (kind) => {
  let running: Chain | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('takes a fork the session made, and one of its own project', async () => {
    const chain = (running = await startChain(kind, { presentations: 1 }));
    const [{ picker }] = chain.presentations as [Presentation];
    await writeSessionFile(chain.dataDir, 'red-fork', { cwd: '/projects/red', forkedFrom: SELF });
    await writeSessionFile(chain.dataDir, 'red-removed', { cwd: '/projects/red' });
    expect(await picker.create({ title: 'fork', sessionId: 'red-fork' }, BACKGROUND_CONTEXT)).toMatchObject({
      sessionId: 'red-fork',
    });
    expect(await picker.create({ title: 'back', sessionId: 'red-removed' }, BACKGROUND_CONTEXT)).toMatchObject({
      sessionId: 'red-removed',
    });
    expect((await chain.repo.get('red-fork'))?.workspaceId).toBe(RED);
  });

  it('refuses another project’s removed session, a live one and a missing file with one answer', async () => {
    const chain = (running = await startChain(kind, { presentations: 1 }));
    const [{ picker }] = chain.presentations as [Presentation];
    // Another project's session, removed (its file stays), and a live one of that project with its file.
    await writeSessionFile(chain.dataDir, 'blue-removed', { cwd: '/projects/blue' });
    await writeSessionFile(chain.dataDir, BLUE_ONE, { cwd: '/projects/blue' });
    const before = ids(await chain.repo.list());

    const answers = [];
    for (const sessionId of ['blue-removed', BLUE_ONE, 'never-was']) {
      const refused = await remoteErrorOf(picker.create({ title: 'takeover', sessionId }, BACKGROUND_CONTEXT));
      answers.push({ code: refused.code, message: refused.message.replaceAll(sessionId, '<id>') });
    }
    expect(answers).toEqual(
      Array(3).fill({ code: 'not_authorized', message: "No session <id> in the caller's workspace" }),
    );
    // Nothing registered, nothing started: the other project's transcript stays where it was.
    expect(ids(await chain.repo.list())).toEqual(before);
    expect((await chain.repo.get(BLUE_ONE))?.workspaceId).not.toBe(RED);
    expect(chain.processes.calls.filter((call) => call.op === 'start')).toEqual([]);
  });

  it('refuses the same to a misbehaving session host calling the directory itself', async () => {
    const chain = (running = await startChain(kind, { presentations: 0 }));
    await writeSessionFile(chain.dataDir, 'blue-removed', { cwd: '/projects/blue' });
    const forged = chain.connectCoordinator(chain.credentials.issue({ sessionId: SELF, workspaceId: RED }));
    const directory = await forged.client.use(SessionDirectory);
    for (const sessionId of ['blue-removed', BLUE_ONE, 'never-was']) {
      const refused = await remoteErrorOf(
        directory.create({ title: 'takeover', workspaceId: RED, sessionId }, BACKGROUND_CONTEXT),
      );
      expect(refused).toMatchObject({
        code: 'not_authorized',
        message: `No session ${sessionId} in the caller's workspace`,
      });
    }
    expect(await chain.repo.get('blue-removed')).toBeUndefined();
  });
});
