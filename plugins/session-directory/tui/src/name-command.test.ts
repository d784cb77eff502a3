import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, RemoteError } from '@pi/plugin-api';
import { TRANSPORTS } from '@pi/test-support';
import { NO_COORDINATOR } from './session-commands';
import { closePickerTuis, startPickerTui } from './testing/picker-tui';

afterEach(closePickerTuis);

describe.each(TRANSPORTS)('/name (%s)', (transport) => {
  it('shows the current session’s title in the footer', async () => {
    const { tui, shows } = await startPickerTui({ transport });
    await shows('session: fix the build');
    expect(tui.screen()).not.toContain('session: write the docs');
  });

  it('/name <title> renames the current session; the footer follows', async () => {
    const { tui, picker, shows, hides } = await startPickerTui({ transport });
    await shows('session: fix the build');
    await tui.type('/name  the parser rewrite \r');
    await shows('This session is now "the parser rewrite"');
    await shows('session: the parser rewrite');
    await hides('session: fix the build');
    expect(picker.calls).toEqual(['rename s-current the parser rewrite']);
  });

  it('a title renamed elsewhere (another client, pi sessions) repaints the footer', async () => {
    const { picker, shows } = await startPickerTui({ transport });
    await shows('session: fix the build');
    await picker.rename('s-current', 'named from elsewhere', BACKGROUND_CONTEXT);
    await shows('session: named from elsewhere');
  });

  it('/name alone says what the session is called and how to rename it', async () => {
    const { tui, picker, shows } = await startPickerTui({ transport });
    await shows('session: fix the build');
    await tui.type('/name\r');
    await shows('This session is "fix the build" — /name <title> renames it');
    expect(picker.calls).toEqual([]);
  });

  it('refuses a title that is too long or holds control characters, saying why, and renames nothing', async () => {
    const { tui, picker, shows } = await startPickerTui({ transport });
    await shows('session: fix the build');
    await tui.type(`/name ${'x'.repeat(201)}\r`);
    await shows('A title has at most 200 characters (that was 201)');
    await tui.type('/name \x1b[200~tab\there\x1b[201~\r'); // pasted: typed tabs never reach the editor
    await shows('A title is one line of text: no tabs, line breaks or other control characters');
    expect(picker.calls).toEqual([]);
  });

  it('a rename the session refuses is one notice with the reason', async () => {
    const { tui, picker, shows } = await startPickerTui({ transport });
    await shows('session: fix the build');
    picker.failNext = new RemoteError('unavailable', 'The coordinator is unreachable');
    await tui.type('/name later\r');
    await shows('Cannot rename this session: The coordinator is unreachable');
    expect(tui.host.failures()).toEqual([]);
  });

  it('a standalone session has no title to show or change', async () => {
    const { tui, picker, shows, hides } = await startPickerTui({ transport });
    await shows('session: fix the build');
    picker.setUpstream('absent');
    picker.state.set({ ...picker.state.value, sessions: [] }, BACKGROUND_CONTEXT);
    await hides('session: fix the build');
    await tui.type('/name x\r');
    await shows(NO_COORDINATOR);
    expect(picker.calls).toEqual([]);
  });
});
