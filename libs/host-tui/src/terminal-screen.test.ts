import { afterEach, describe, expect, it } from 'vitest';
import { createTerminalScreen, type TerminalScreen } from './terminal-screen';
import { createVirtualTerminal } from './testing';

const screens: TerminalScreen[] = [];
afterEach(() => screens.splice(0).forEach((screen) => screen.destroy()));

function screenOf(columns: number, rows: number) {
  const terminal = createVirtualTerminal(columns, rows);
  const screen = createTerminalScreen(terminal);
  screens.push(screen);
  return { terminal, screen };
}

describe('the terminal screen', () => {
  it('puts wide characters of every script in the right columns', () => {
    const { screen } = screenOf(20, 3);
    screen.paint(['🐢 a 你好 b', 'é́ café ✅x', '\x1b[31mred\x1b[0m plain'], null);
    expect(screen.text()).toEqual(['🐢 a 你好 b         ', 'é́ café ✅x          ', 'red plain           ']);
  });

  it('cuts a line at the screen width without splitting a wide character', () => {
    const { screen } = screenOf(5, 1);
    screen.paint(['abcd你'], null);
    expect(screen.text()).toEqual(['abcd ']);
  });

  it('follows a resize: the next frame has the new size', async () => {
    const { terminal, screen } = screenOf(10, 2);
    let resized = false;
    screen.onResize(() => (resized = true));
    terminal.resize(6, 3);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(resized).toBe(true);
    screen.paint(['123456789', 'x'], null);
    expect(screen.text()).toEqual(['123456', 'x     ', '      ']);
  });

  it('wraps each frame in synchronized-output markers, so terminals that support them never show half a frame', () => {
    const { terminal, screen } = screenOf(20, 2);
    const before = terminal.written().length;
    screen.paint(['aframe'], null);
    const written = terminal.written().slice(before);
    const begin = written.indexOf('\x1b[?2026h');
    expect(begin).toBeGreaterThanOrEqual(0);
    expect(written.indexOf('aframe')).toBeGreaterThan(begin);
    expect(written.lastIndexOf('\x1b[?2026l')).toBeGreaterThan(written.indexOf('aframe'));
  });

  it('writes only what changed between two frames', () => {
    const { terminal, screen } = screenOf(30, 4);
    screen.paint(['first line', 'second line'], null);
    const before = terminal.written().length;
    screen.paint(['first line', 'second line!'], null);
    const delta = terminal.written().slice(before);
    expect(delta).not.toContain('first line');
    expect(delta).toContain('!');
  });
});
