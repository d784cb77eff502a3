import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost } from '@pi/host-tui/testing';
import { BACKGROUND_CONTEXT, RemoteError, type CodingAgentTuiPluginContext } from '@pi/plugin-api';
import { SessionPicker } from '@pi/session-directory';
import { eventually, startRpcFixture } from '@pi/test-support';
import { NO_COORDINATOR, STALE_LIST } from './session-commands';
import { sessionDirectoryTuiFacet } from './session-tui-facet';
import { closePickerTuis, onClose, startPickerTui as startFixture } from './testing/picker-tui';
import { standInPicker } from './testing/stand-in-picker';

afterEach(closePickerTuis);

describe('/sessions', () => {
  it('lists the project’s sessions newest first, the current one marked, with status and time, then the actions', async () => {
    const { tui, shows } = await startFixture();
    await tui.type('/sessions\r');
    await shows('Sessions (3)');
    const screen = tui.screen();
    expect(screen).toContain('write the docs · idle · 1m ago');
    expect(screen).toContain('● fix the build · active · 5m ago');
    expect(screen).toContain('  old spike · closed · 3h ago');
    expect(screen).toContain('+ New session…');
    expect(screen).toContain('− Remove a session…');
    const order = ['write the docs', 'fix the build', 'old spike', '+ New session…'].map((t) => screen.indexOf(t));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(tui.host.failures()).toEqual([]);
  });

  it('choosing another session resumes it, then asks the application to switch to it', async () => {
    const { tui, picker, switched, shows, hides } = await startFixture();
    await tui.type('/sessions\r');
    await shows('Sessions (3)');
    await tui.type('docs\r');
    await shows('Switching to "write the docs"…');
    await eventually(() => switched.length === 1);
    expect(picker.calls).toEqual(['resume s-docs']);
    expect(switched).toEqual(['s-docs']);
    await hides('Sessions (3)');
  });

  it('a session that is not running says it is being started', async () => {
    const { tui, picker, switched, shows } = await startFixture();
    await tui.type('/sessions\r');
    await shows('Sessions (3)');
    await tui.type('spike\r');
    await shows('Starting "old spike"…');
    await eventually(() => switched.length === 1);
    expect(picker.calls).toEqual(['resume s-old']);
  });

  it('choosing the current session changes nothing', async () => {
    const { tui, picker, switched, shows } = await startFixture();
    await tui.type('/sessions\r');
    await shows('Sessions (3)');
    await tui.type('build\r');
    await shows('You are in "fix the build" already');
    expect(picker.calls).toEqual([]);
    expect(switched).toEqual([]);
  });

  it('/sessions <name> switches directly; a name that matches several offers those', async () => {
    const picker = standInPicker();
    picker.state.set(
      {
        ...picker.state.value,
        sessions: [
          ...picker.state.value.sessions,
          { sessionId: 's-docs-2', title: 'write the docs again', status: 'idle', updatedAt: 'x', isCurrent: false },
        ],
      },
      BACKGROUND_CONTEXT,
    );
    const { tui, switched, shows } = await startFixture({ picker });
    await tui.type('/sessions old\r');
    await eventually(() => switched.length === 1);
    expect(switched).toEqual(['s-old']);

    await tui.type('/sessions write\r');
    await shows('Sessions matching "write"');
    expect(tui.screen()).toContain('write the docs again · idle');
    await tui.type('again\r');
    await eventually(() => switched.length === 2);
    expect(switched).toEqual(['s-old', 's-docs-2']);

    await tui.type('/sessions nothing-like-it\r');
    await shows('No session matches "nothing-like-it" — /sessions lists them');
  });

  it('a switch the application refuses is a notice, and the TUI stays where it is', async () => {
    const { tui, shows } = await startFixture({
      switchSession: () => Promise.reject(new Error('Cannot attach to s-docs: the session did not answer within 10 s')),
    });
    await tui.type('/sessions docs\r');
    await shows('Cannot switch to "write the docs": Cannot attach to s-docs: the session did not answer within 10 s');
    expect(tui.host.failures()).toEqual([]);
  });

  it('an error the service answers with becomes one line, and nothing switches', async () => {
    const { tui, picker, switched, shows } = await startFixture();
    picker.failNext = new RemoteError('not_authorized', 'Not in your workspace');
    await tui.type('/sessions docs\r');
    await shows('Cannot switch to "write the docs": not allowed: Not in your workspace');
    picker.failNext = new RemoteError('unknown_session', 'Not visible: s-docs');
    await tui.type('/sessions docs\r');
    await shows("that session is not in this project's list (any more): Not visible: s-docs");
    expect(switched).toEqual([]);
  });
});

describe('removing a session', () => {
  it('asks first: No keeps it, Yes removes it', async () => {
    const { tui, picker, shows, hides } = await startFixture();
    await tui.type('/sessions rm old\r');
    await shows('Remove this session?');
    expect(tui.screen()).toContain('"old spike" (s-old) stops if it runs and leaves this list.');
    await tui.type('n');
    await hides('Remove this session?');
    expect(picker.calls).toEqual([]);

    await tui.type('/sessions rm s-old\r');
    await shows('Remove this session?');
    await tui.type('y');
    await shows('Removed "old spike"');
    expect(picker.calls).toEqual(['remove s-old']);
    expect(picker.state.value.sessions.map((session) => session.sessionId)).toEqual(['s-current', 's-docs']);
  });

  it('from the list: "Remove a session…" offers the others, then asks', async () => {
    const { tui, picker, shows } = await startFixture();
    await tui.type('/sessions\r');
    await shows('Sessions (3)');
    await tui.type('remove a\r');
    await shows('Remove which session?');
    expect(tui.screen()).not.toContain('fix the build ·');
    await tui.type('docs\r');
    await shows('Remove this session?');
    await tui.type('y');
    await shows('Removed "write the docs"');
    expect(picker.calls).toEqual(['remove s-docs']);
  });

  it('refuses the current session without asking the service', async () => {
    const { tui, picker, shows } = await startFixture();
    await tui.type('/sessions rm fix\r');
    await shows('"fix the build" is the session you are in: switch to another one to remove it');
    expect(picker.calls).toEqual([]);
  });

  it('says so when the service refuses it as current', async () => {
    const { tui, picker, shows } = await startFixture();
    picker.failNext = new RemoteError('current_session', 'The current session cannot remove itself');
    await tui.type('/sessions rm old\r');
    await shows('Remove this session?');
    await tui.type('y');
    await shows('Cannot remove "old spike": that is the session you are in — switch to another one first');
  });
});

describe('/new', () => {
  it('/new <title> creates the session and switches to it', async () => {
    const { tui, picker, switched, shows } = await startFixture();
    await tui.type('/new try the other fix\r');
    await shows('Creating "try the other fix"…');
    await eventually(() => switched.length === 1);
    expect(picker.calls).toEqual(['create try the other fix']);
    expect(switched).toEqual(['s-new-1']);
  });

  it('without a title it asks for one; Esc creates nothing', async () => {
    const { tui, picker, switched, shows, hides } = await startFixture();
    await tui.type('/new\r');
    await shows('New session');
    await tui.type('\x1b');
    await hides('New session');
    expect(picker.calls).toEqual([]);

    await tui.type('/new\r');
    await shows('New session');
    await tui.type('spike two\r');
    await eventually(() => switched.length === 1);
    expect(picker.calls).toEqual(['create spike two']);
  });

  it('"+ New session…" in the list asks for the title too; Enter alone leaves it to the first prompt', async () => {
    const { tui, picker, shows } = await startFixture();
    await tui.type('/sessions\r');
    await shows('Sessions (3)');
    await tui.type('+ new\r');
    await shows('its first prompt names it');
    await tui.type('   \r');
    await shows('Creating a new session…');
    await eventually(() => picker.calls.length === 1);
    expect(picker.calls).toEqual(['create (untitled)']);
  });

  it('/clear starts a new untitled session at once and switches to it, asking nothing', async () => {
    const { tui, picker, switched, shows } = await startFixture();
    await tui.type('/clear\r');
    await shows('Creating a new session…');
    await eventually(() => switched.length === 1);
    expect(picker.calls).toEqual(['create (untitled)']);
    expect(tui.screen()).not.toContain('New session');
  });

  it('a created session the TUI cannot switch to is still reported as created', async () => {
    const { tui, shows } = await startFixture({ switchSession: () => Promise.reject(new Error('no connection file')) });
    await tui.type('/new later\r');
    await shows('Created "later", but cannot switch to it: no connection file');
  });
});

describe('without a live coordinator', () => {
  it('a standalone session says how to get one, for /sessions, /new and /clear alike', async () => {
    const { tui, picker, shows, hides } = await startFixture();
    picker.setUpstream('absent');
    await tui.type('/sessions\r');
    await shows(NO_COORDINATOR);
    expect(tui.screen()).not.toContain('Sessions (');
    tui.clock.now += 6000; // the notice times out
    await hides(NO_COORDINATOR);
    await tui.type('/new x\r');
    await shows(NO_COORDINATOR);
    tui.clock.now += 6000;
    await hides(NO_COORDINATOR);
    await tui.type('/clear\r');
    await shows(NO_COORDINATOR);
    expect(picker.calls).toEqual([]);
  });

  it('while the coordinator is unreachable the list shows as stale, and changes report why they failed', async () => {
    const { tui, picker, switched, shows } = await startFixture();
    picker.setUpstream('disconnected');
    await tui.type('/sessions\r');
    await shows('Sessions · stale, the coordinator is unreachable');
    expect(tui.screen()).toContain(STALE_LIST);
    expect(tui.screen()).toContain('write the docs · idle');
    await tui.type('docs\r');
    await shows('Cannot switch to "write the docs": The coordinator is unreachable');

    await tui.type('/new x\r');
    await shows('Cannot create "x": The coordinator is unreachable');
    await tui.type('/sessions rm old\r');
    await shows('Remove this session?');
    await tui.type('y');
    await shows('Cannot remove "old spike": The coordinator is unreachable');
    expect(switched).toEqual([]);
    expect(tui.host.failures()).toEqual([]);
  });

  it('a session without the picker says the plugin is missing instead of failing', async () => {
    const { tui, shows } = await startFixture({ picker: null });
    await tui.type('/sessions\r');
    await shows('Sessions: this session has no session directory (@pi/session-directory is not in its manifest)');
  });
});

describe('closing', () => {
  it('stopping the TUI while the list is open closes it and calls nothing', async () => {
    const { tui, picker, switched, shows } = await startFixture();
    await tui.type('/sessions\r');
    await shows('Sessions (3)');
    await tui.stop();
    expect(picker.calls).toEqual([]);
    expect(switched).toEqual([]);
  });
});

describe('sessions.adopt (for other facets: chat’s /fork)', () => {
  it('registers a session file under its id and switches to it', async () => {
    const picker = standInPicker();
    const rpc = await startRpcFixture('loopback', { provide: (registry) => registry.provide(SessionPicker, picker) });
    onClose(() => rpc.close());
    const switched: string[] = [];
    let other: CodingAgentTuiPluginContext | undefined;
    const tui = await startTestTuiHost({
      facets: { '@pi/session-directory': sessionDirectoryTuiFacet, '@t/other': (context) => void (other = context) },
      client: await rpc.connect(),
      switchSession: async (sessionId) => void switched.push(sessionId),
    });
    onClose(() => tui.stop());
    await other?.commands.run('sessions.adopt', 's-fork-1 fork of one');
    expect(picker.calls).toEqual(['adopt s-fork-1 fork of one']);
    expect(switched).toEqual(['s-fork-1']);
  });
});
