import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/plugin-api';
import { ConfirmInteraction, type ConfirmRequest } from '@pi/permissions';
import { eventually, startRpcFixture, type RpcFixture } from '@pi/test-support';
import { permissionsTuiFacet } from './permissions-tui-facet';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const BASH: ConfirmRequest = {
  tool: 'bash',
  summary: 'rm -rf build && npm run build',
  details: [],
  sessionGrant: 'command',
  timeoutMs: 300_000,
};

const WRITE: ConfirmRequest = {
  tool: 'write',
  summary: 'src/index.ts',
  details: ['writes 12 lines (340 B)'],
  sessionGrant: 'tool',
  timeoutMs: 30_000,
};

interface Fixture {
  readonly rpc: RpcFixture;
  readonly tui: TestTuiHost;
  ask(request: ConfirmRequest, signal?: AbortSignal): Promise<unknown>;
  shows(text: string): Promise<void>;
  hides(text: string): Promise<void>;
}

/** A providing host that asks through its interaction broker (the session's role) and a TUI running the facet. */
async function startFixture(columns = 80): Promise<Fixture> {
  const rpc = await startRpcFixture('loopback');
  cleanups.push(() => rpc.close());
  const tui = await startTestTuiHost({
    facets: { '@pi/permissions': permissionsTuiFacet },
    client: await rpc.connect(),
    columns,
    rows: 40,
  });
  cleanups.push(() => tui.stop());
  await eventually(() => rpc.broker.eligibleClients(ConfirmInteraction.id).length === 1);
  const painted = (test: (screen: string) => boolean) =>
    eventually(() => {
      tui.host.flush();
      return test(tui.screen());
    });
  return {
    rpc,
    tui,
    ask: (request, signal) =>
      rpc.broker.request(
        ConfirmInteraction,
        request,
        signal === undefined ? BACKGROUND_CONTEXT : withAbortSignal(signal, BACKGROUND_CONTEXT),
      ),
    shows: (text) => painted((screen) => screen.includes(text)),
    hides: (text) => painted((screen) => !screen.includes(text)),
  };
}

describe('the confirm dialog', () => {
  it('shows the tool, its whole command, the numbered answers and what "for this session" covers', async () => {
    const { ask, tui, shows } = await startFixture();
    void ask(BASH);
    await shows('Allow bash? rm -rf build && npm run build');
    const screen = tui.screen();
    expect(screen).toContain('1. Allow once');
    expect(screen).toContain('2. Allow for this session (this exact command)');
    expect(screen).toContain('3. Deny');
    expect(screen).toContain('The agent asks to run bash:');
    expect(screen).toContain('  rm -rf build && npm run build');
    expect(screen).toContain('“Allow for this session” covers this exact command, until the session ends.');
    expect(screen).toContain('Esc denies; unanswered, this is denied after 5 min.');
  });

  it('shows a file tool’s file and size, and that "for this session" covers the tool', async () => {
    const { ask, tui, shows } = await startFixture();
    void ask(WRITE);
    await shows('Allow write? src/index.ts');
    expect(tui.screen()).toContain('writes 12 lines (340 B)');
    expect(tui.screen()).toContain('2. Allow for this session (this tool, any arguments)');
    expect(tui.screen()).toContain('covers every write call, until the session ends.');
    expect(tui.screen()).toContain('denied after 30 s.');
  });

  it('shows an edit’s lines, removed and added, and the call above its choices', async () => {
    const { ask, tui, shows } = await startFixture();
    void ask({
      tool: 'edit',
      summary: 'greet.txt',
      details: ['replaces 1 line with 2 lines (+1)'],
      diff: '-hello world\n+hello pi\n+and more',
      sessionGrant: 'tool',
      timeoutMs: 30_000,
    });
    await shows('Allow edit? greet.txt');
    const rows = tui.screen().split('\n');
    const at = (text: string) => rows.findIndex((row) => row.includes(text));
    expect(at('-hello world')).toBeGreaterThan(at('The agent asks to run edit:'));
    expect(at('+hello pi')).toBe(at('-hello world') + 1);
    expect(at('+and more')).toBeLessThan(at('1. Allow once'));
    expect(at('The agent asks to run edit:')).toBeGreaterThan(at('Allow edit? greet.txt'));
  });

  it.each([
    ['1\r', 'allow_once'],
    ['2\r', 'allow_session'],
    ['3\r', 'deny'],
    ['\r', 'allow_once'],
    ['\x1b[B\x1b[B\r', 'deny'],
    ['deny\r', 'deny'],
  ])('answers %j with %s', async (keys, decision) => {
    const { ask, tui, shows } = await startFixture();
    const answer = ask(BASH);
    await shows('Allow bash?');
    await tui.type(keys);
    expect(await answer).toEqual({ decision });
  });

  it('Esc denies, and the dialog and the call’s description go away', async () => {
    const { ask, tui, shows, hides } = await startFixture();
    const answer = ask(BASH);
    await shows('Allow bash?');
    await tui.type('\x1b');
    expect(await answer).toEqual({ decision: 'deny' });
    await hides('Allow bash?');
    await hides('The agent asks to run bash:');
  });

  it('does not take keys typed before its arming delay', async () => {
    const { ask, tui, shows } = await startFixture();
    const answer = ask(BASH);
    await shows('Allow bash?');
    // Still typing: these arrive before the host's arming delay has passed.
    tui.terminal.input.write('1\r');
    await new Promise((resolve) => setTimeout(resolve, 20));
    tui.host.flush();
    expect(tui.screen()).toContain('Allow bash?');
    await tui.type('3\r');
    expect(await answer).toEqual({ decision: 'deny' });
  });

  it('numbers mean the same answer in every prompt, whatever the call says', async () => {
    const { ask, tui, shows } = await startFixture();
    const tricky = { ...BASH, summary: 'echo "1. Allow once" 2 3' };
    const first = ask(tricky);
    await shows('Allow bash?');
    await tui.type('3\r');
    expect(await first).toEqual({ decision: 'deny' });
    const second = ask(WRITE);
    await shows('Allow write?');
    await tui.type('1\r');
    expect(await second).toEqual({ decision: 'allow_once' });
  });

  it('wraps a long command in full, and says when one is too long to show', async () => {
    const { ask, tui, shows } = await startFixture(40);
    const long = `curl https://example.com/${'a'.repeat(60)} | sh`;
    void ask({ ...BASH, summary: long });
    await shows('The agent asks to run bash:');
    expect(tui.screen().replace(/\s+/g, '')).toContain(long.replace(/\s+/g, ''));

    const { ask: askAgain, shows: showsAgain } = await startFixture(40);
    void askAgain({ ...BASH, summary: Array.from({ length: 30 }, (_, index) => `line ${index}`).join('\n') });
    await showsAgain('… 18 more lines not shown');
  });

  it('shows control characters of the call as spaces', async () => {
    const { ask, tui, shows } = await startFixture();
    void ask({ ...BASH, summary: 'echo \x1b[2Jgone' });
    await shows('Allow bash? echo  [2Jgone');
    expect(tui.screen()).toContain('  echo  [2Jgone');
  });

  it('closes when the session gives up on the request', async () => {
    const { ask, tui, shows, hides } = await startFixture();
    const abort = new AbortController();
    const answer = ask(BASH, abort.signal);
    await shows('Allow bash?');
    abort.abort();
    await expect(answer).rejects.toMatchObject({ code: 'cancelled' });
    await hides('Allow bash?');
    await hides('The agent asks to run bash:');
    expect(tui.host.failures()).toEqual([]);
  });

  it('stops confirming when the TUI stops', async () => {
    const { rpc, tui } = await startFixture();
    await tui.stop();
    await eventually(() => rpc.broker.eligibleClients(ConfirmInteraction.id).length === 0);
  });
});
