import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualTerminal, type VirtualTerminal } from '@pi/host-tui/testing';
import { ALT_SCREEN_ENTER, BRACKETED_PASTE_ON, defaultKeymap, restoreTerminal } from '@pi/terminal';
import { openStartupScreen, type StartupScreen } from './startup-screen';

const opened: StartupScreen[] = [];
afterEach(() => {
  for (const screen of opened.splice(0)) screen.handOver();
});

function start(columns = 80, rows = 24) {
  const terminal = createVirtualTerminal(columns, rows);
  const clock = { now: 50_000 };
  const screen = openStartupScreen({
    terminal,
    keymap: defaultKeymap,
    label: '/home/me/project',
    now: () => clock.now,
  });
  opened.push(screen);
  return { terminal, clock, screen, type: (text: string) => typeAndPaint(terminal, text) };
}

/** Writes keys and resolves once the screen painted after them. */
function typeAndPaint(terminal: VirtualTerminal, text: string): Promise<void> {
  return new Promise((resolve) => {
    terminal.output.once('data', () => setImmediate(resolve));
    terminal.input.write(text);
  });
}

const text = (screen: StartupScreen) => screen.lines().join('\n');

describe('the startup screen', () => {
  it('takes the terminal at once and says what pi waits for and since when', () => {
    const { terminal, clock, screen } = start();
    expect(terminal.written().startsWith(ALT_SCREEN_ENTER + BRACKETED_PASTE_ON)).toBe(true);
    expect(screen.lines()).toHaveLength(24);
    expect(screen.lines().at(-1)).toContain('◌ starting  /home/me/project  enter queue');
    clock.now += 3_400;
    screen.phase('Starting the coordinator');
    expect(text(screen)).toContain('◌ Starting the coordinator… 3 s');
    clock.now += 2_000;
    screen.phase('Connecting to the session');
    expect(text(screen)).toContain('◌ Connecting to the session… 5 s');
    expect(text(screen)).not.toContain('Starting the coordinator');
  });

  it('is an editor meanwhile: Enter queues the prompt above it, in order, and the hand-over carries both', async () => {
    const { screen, type } = start();
    await type('list files in src\r');
    await type('/name early\r');
    await type('half a');
    await type('\x1b[D\x1b[D\x1b[Dn');
    expect(text(screen)).toContain('queued: list files in src\nqueued: /name early\n');
    expect(text(screen)).toContain('halnf a');
    await type('\r\r');
    expect(screen.handOver()).toEqual({ draft: '', queued: ['list files in src', '/name early', 'halnf a'] });
  });

  it('keeps a pasted prompt whole, and a queued one of several lines shows as one', async () => {
    const { screen, type } = start();
    await type('\x1b[200~first line\nsecond line\x1b[201~');
    await type('\r');
    expect(text(screen)).toContain('queued: first line (+1 lines)');
    expect(screen.handOver().queued).toEqual(['first line\nsecond line']);
  });

  it('reads no more keys after the hand-over: they wait in the stream for the TUI', async () => {
    const { terminal, screen, type } = start();
    await type('typed before');
    expect(screen.handOver()).toEqual({ draft: 'typed before', queued: [] });
    const before = terminal.written();
    terminal.input.write('typed after');
    await new Promise((resolve) => setImmediate(resolve));
    expect(terminal.written()).toBe(before);
    expect(String(terminal.input.read())).toBe('typed after');
  });

  it('Ctrl+C clears what is typed, then twice on an empty editor quits; Ctrl+D on an empty editor quits', async () => {
    const first = start();
    let quit = false;
    void first.screen.quitting.then(() => (quit = true));
    await first.type('some draft');
    await first.type('\x03');
    expect(first.screen.handOver().draft).toBe('');
    const second = start();
    void second.screen.quitting.then(() => (quit = true));
    await second.type('\x03');
    expect(text(second.screen)).toContain('Press ctrl+c again to quit');
    expect(quit).toBe(false);
    second.terminal.input.write('\x03');
    await second.screen.quitting;

    const third = start();
    third.terminal.input.write('\x04');
    await third.screen.quitting;
  });

  it('gives the terminal back and prints what was typed and not sent, after the restore so the user can copy it', async () => {
    const { terminal, screen, type } = start();
    await type('queued one\r');
    await type('still in the editor');
    screen.restore();
    const written = terminal.written();
    const restoredAt = written.lastIndexOf(restoreTerminal());
    expect(restoredAt).toBeGreaterThan(0);
    expect(written.slice(restoredAt + restoreTerminal().length)).toBe(
      'Typed while pi started, not sent:\n\nqueued one\n\nstill in the editor\n\n',
    );
  });

  it('prints nothing more than the restore when nothing was typed', () => {
    const { terminal, screen } = start();
    screen.restore();
    expect(terminal.written().endsWith(restoreTerminal())).toBe(true);
  });
});
