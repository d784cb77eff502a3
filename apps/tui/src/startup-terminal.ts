import { restoreTerminal, type Keymap } from '@pi/terminal';
import { openStartupScreen, type StartupScreen } from './startup-screen';

/**
 * The terminal as pi-tui holds it from its first moment: the startup screen on it, quitting wired to the keys and
 * signals that end pi-tui, and the terminal given back at exit. Opened before the TUI host is even loaded, so
 * a SIGTERM or Ctrl+C while it loads still leaves the terminal as pi found it.
 */
/** The process's own terminal streams. */
export interface ProcessTerminal {
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WriteStream;
}

export interface StartupTerminal {
  readonly io: ProcessTerminal;
  readonly keymap: Keymap;
  readonly screen: StartupScreen;
  /** Settles when the user quits: from the startup screen, the TUI (`quit`), SIGTERM or SIGHUP. */
  readonly quitting: Promise<void>;
  quit(): void;
  /** Raw mode off and the main screen back; also done at exit. */
  restore(): void;
  /** Gives the terminal back through the startup screen (which prints what was typed and not sent), once. */
  restoreFromStartup(): void;
}

export function openStartupTerminal(io: ProcessTerminal, keymap: Keymap, label: string): StartupTerminal {
  const { input, output } = io;
  const screen = openStartupScreen({ terminal: io, keymap, label });
  const restore = () => {
    output.write(restoreTerminal());
    if (input.isTTY) input.setRawMode(false);
  };
  process.once('exit', restore);
  let quit: () => void = () => undefined;
  const quitting = new Promise<void>((resolve) => (quit = resolve));
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.once(signal, () => quit());
  void screen.quitting.then(() => quit());
  return {
    io,
    keymap,
    screen,
    quitting,
    quit: () => quit(),
    restore,
    restoreFromStartup() {
      // Restored once: leaving the alternate screen again would move the cursor back over what is printed after it.
      process.off('exit', restore);
      screen.restore();
    },
  };
}
