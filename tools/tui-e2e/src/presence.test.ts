import { afterEach, describe, it } from 'vitest';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { TRANSPORTS } from '@pi/test-support';

const running: Array<TestSessionHost | TestTuiHost> = [];
afterEach(async () => {
  for (const host of running.splice(0).reverse()) await ('close' in host ? host.close() : host.stop());
});

describe.each(TRANSPORTS)('presence in the TUI over %s', (transport) => {
  it('shows who else is attached in the footer, by name and kind, and forgets one that leaves', async () => {
    const session = await startTestSessionHost({ transport, facets: [] });
    running.push(session);
    const alice = await startTestTuiHost({ facets: {}, client: await session.connect(), presenceName: 'alice@laptop' });
    running.push(alice);
    const bobClient = await session.connect();
    const bob = await startTestTuiHost({ facets: {}, client: bobClient, presenceName: 'bob@desk' });

    await alice.waitForScreen((screen) => screen.includes('1 other here: bob@desk (tui)'));
    await bob.waitForScreen((screen) => screen.includes('1 other here: alice@laptop (tui)'));
    await session.connect();
    await alice.waitForScreen((screen) => screen.includes('2 others here: bob@desk (tui), client'));

    await bob.stop();
    bobClient.close();
    await alice.waitForScreen((screen) => screen.includes('1 other here: client') && !screen.includes('bob@desk'));
  });

  it('shows nothing about others while the TUI is alone', async () => {
    const session = await startTestSessionHost({ transport, facets: [] });
    running.push(session);
    const alone = await startTestTuiHost({ facets: {}, client: await session.connect(), presenceName: 'solo@host' });
    running.push(alone);
    await alone.waitForScreen((screen) => screen.includes('test'));
    await alone.type('x');
    await alone.waitForScreen((screen) => screen.includes('x') && !screen.includes('here:'));
  });
});
