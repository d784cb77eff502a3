import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/plugin-api';
import { SessionPicker } from '@pi/session-directory';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { remoteErrorOf } from '@pi/test-support';
import sessionDirectorySessionFacet from './index';

describe('the session picker of a session without a coordinator', () => {
  let session: TestSessionHost | undefined;
  afterEach(async () => {
    await session?.close();
    session = undefined;
  });

  it('says the upstream is absent, lists nothing and refuses changes with unavailable', async () => {
    session = await startTestSessionHost({
      facets: [{ id: '@pi/session-directory', facet: sessionDirectorySessionFacet }],
    });
    const client = await session.connect();
    const picker = await client.use(SessionPicker);
    expect(picker.state.value).toEqual({ revision: 0, sessions: [], upstream: 'absent' });
    for (const call of [
      picker.create({ title: 'x' }, BACKGROUND_CONTEXT),
      picker.resume('s-1', BACKGROUND_CONTEXT),
      picker.remove('s-1', BACKGROUND_CONTEXT),
    ]) {
      expect(['unavailable', 'unknown_session']).toContain((await remoteErrorOf(call)).code);
    }
    expect((await remoteErrorOf(picker.create({ title: 'x' }, BACKGROUND_CONTEXT))).message).toMatch(
      /without a coordinator/,
    );
  });
});
