import { afterEach, describe, it } from 'vitest';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { TRANSPORTS } from '@pi/test-support';

const running: Array<TestSessionHost | TestTuiHost> = [];
afterEach(async () => {
  for (const host of running.splice(0).reverse()) await ('close' in host ? host.close() : host.stop());
});

describe.each(TRANSPORTS)('diagnostics in the TUI over %s', (transport) => {
  it('counts a plugin whose contribution throws in the footer, and /diagnostics lists it and clears the count', async () => {
    const session = await startTestSessionHost({
      transport,
      facets: [
        {
          id: '@t/broken',
          facet: (context) =>
            void context.tools.add(() => {
              throw new Error('no tools today');
            }),
        },
      ],
    });
    running.push(session);
    const tui = await startTestTuiHost({ facets: {}, client: await session.connect() });
    running.push(tui);

    await tui.waitForScreen((screen) => screen.includes('⚠ 1 problem in plugins — /diagnostics lists them'));
    await tui.type('/diagnostics\r');
    await tui.waitForScreen((screen) => screen.includes('error @t/broken (rebuild): no tools today'));
    await tui.waitForScreen((screen) => !screen.includes('problem in plugins'));
  });

  it("counts and lists this TUI's own plugin failures beside the session's", async () => {
    const session = await startTestSessionHost({ transport, facets: [] });
    running.push(session);
    const tui = await startTestTuiHost({
      facets: {
        '@t/fragile': (context) =>
          context.effect(() => {
            throw new Error('tui effect broke');
          }),
      },
      client: await session.connect(),
    });
    running.push(tui);

    await tui.waitForScreen((screen) => screen.includes('⚠ 1 problem in plugins'));
    await tui.type('/diagnostics\r');
    await tui.waitForScreen((screen) => screen.includes('this TUI: @t/fragile: effect failed: tui effect broke'));
    await tui.waitForScreen((screen) => !screen.includes('problem in plugins'));
  });

  it('says all is well when nothing went wrong', async () => {
    const session = await startTestSessionHost({ transport, facets: [] });
    running.push(session);
    const tui = await startTestTuiHost({ facets: {}, client: await session.connect() });
    running.push(tui);
    await tui.type('/diagnostics\r');
    await tui.waitForScreen((screen) => screen.includes('No diagnostics: every plugin is fine.'));
  });
});
