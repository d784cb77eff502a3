import { afterEach, describe, expect, it } from 'vitest';
import { workspaceIdOf } from '@pi/connection-files';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { SessionEnrollment, SessionPresence } from '@pi/coordinator-api';
import { TRANSPORTS, remoteErrorOf } from '@pi/test-support';
import { RED, SELF, startChain, type Chain } from './chain';

const ELSEWHERE = '/srv/elsewhere/project';

describe.each(TRANSPORTS)('enrolling a session that runs elsewhere, over %s', (kind) => {
  let running: Chain | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('gives the user a record and a credential that connects as that session, and again for the same directory', async () => {
    const chain = (running = await startChain(kind, { presentations: 0 }));
    const user = chain.connectCoordinator(chain.userToken);
    const enrollment = await user.client.use(SessionEnrollment);
    const enrolled = await enrollment.enroll({ cwd: ELSEWHERE, title: 'remote' }, BACKGROUND_CONTEXT);
    expect(enrolled).toMatchObject({ workspaceId: workspaceIdOf(ELSEWHERE), credential: expect.any(String) });
    expect(await chain.repo.get(enrolled.sessionId)).toMatchObject({
      title: 'remote',
      cwd: ELSEWHERE,
      ownerId: 'tester',
      status: 'closed',
    });

    const asSession = chain.connectCoordinator(enrolled.credential, { reconnect: false });
    await asSession.client.whenConnected();
    const presence = await asSession.client.use(SessionPresence);
    await presence.report({ presentations: 0, busy: false }, BACKGROUND_CONTEXT);
    expect(chain.credentials.verify(enrolled.credential)).toEqual({
      sessionId: enrolled.sessionId,
      workspaceId: enrolled.workspaceId,
    });

    const again = await enrollment.enroll({ cwd: ELSEWHERE, sessionId: enrolled.sessionId }, BACKGROUND_CONTEXT);
    expect(again).toEqual(enrolled);
  });

  it('refuses an id another directory holds, a relative directory, and a session that tries to enroll one', async () => {
    const chain = (running = await startChain(kind, { presentations: 0 }));
    const enrollment = await chain.connectCoordinator(chain.userToken).client.use(SessionEnrollment);
    const taken = await remoteErrorOf(enrollment.enroll({ cwd: ELSEWHERE, sessionId: SELF }, BACKGROUND_CONTEXT));
    expect(taken).toMatchObject({
      code: 'duplicate_session',
      message: `Session ${SELF} works in /projects/red, not ${ELSEWHERE}`,
    });
    expect((await remoteErrorOf(enrollment.enroll({ cwd: 'relative' }, BACKGROUND_CONTEXT))).code).toBe(
      'invalid_argument',
    );

    const session = chain.connectCoordinator(chain.credentials.issue({ sessionId: SELF, workspaceId: RED }));
    const fromSession = await session.client.use(SessionEnrollment);
    expect(await remoteErrorOf(fromSession.enroll({ cwd: '/projects/red' }, BACKGROUND_CONTEXT))).toMatchObject({
      code: 'not_authorized',
      message: 'Only the user enrolls sessions',
    });
  });
});
