import { Editor } from '@pi/editor';
import type { TerminalIO } from '@pi/host-tui';
import {
  AUTOWRAP_OFF,
  CURSOR_HIDE,
  CURSOR_SHOW,
  SGR_RESET,
  createInputDecoder,
  createStyler,
  darkTheme,
  enterTerminal,
  restoreTerminal,
  stripAnsi,
  synchronized,
  type InputEvent,
  type Keymap,
} from '@pi/terminal';
import { startupFrame } from './startup-frame';

export interface StartupScreenOptions {
  readonly terminal: TerminalIO;
  readonly keymap: Keymap;
  /** Where the session will work, shown in the footer as the TUI will. */
  readonly label: string;
  readonly now?: () => number;
}

/** What the user typed while pi started: carried into the TUI, or printed when pi cannot start. */
export interface TypedWhileStarting {
  /** What the editor holds, pastes expanded. */
  readonly draft: string;
  /** Prompts sent with Enter (or Alt+Enter), oldest first. */
  readonly queued: readonly string[];
}

/**
 * The screen pi shows from its first moment until the TUI is attached: what it waits for and for how long, and an
 * editor to type the first prompts into meanwhile. It takes the terminal as the TUI will (raw keys, alternate
 * screen, bracketed paste, no autowrap), so the TUI paints over it without the terminal being reset in between.
 */
export interface StartupScreen {
  /** Says what pi waits for now ("Starting the coordinator"). */
  phase(what: string): void;
  /** Settles when the user quits: Ctrl+C twice, or Ctrl+D on an empty editor. */
  readonly quitting: Promise<void>;
  /** Stops reading keys and painting, leaving the terminal as it is for the TUI; answers what was typed. */
  handOver(): TypedWhileStarting;
  /** Gives the terminal back as pi found it and prints what was typed and not sent, so the user can copy it. */
  restore(): void;
  /** The characters of the last frame, one string per row (tests). */
  lines(): string[];
}

const QUIT_WINDOW_MS = 1500;
const TICK_MS = 1000;

export function openStartupScreen(options: StartupScreenOptions): StartupScreen {
  const { input, output } = options.terminal;
  const now = options.now ?? (() => performance.now());
  const { keymap } = options;
  // The styler tuiTheme() wraps: @pi/host-tui itself (blessed, the transport) is not loaded yet when this paints.
  const theme = createStyler(darkTheme);
  const startedAt = now();
  const editor = new Editor({ markerStyle: (label) => theme.paint('accent', label) });
  const queued: string[] = [];
  let phase = 'Starting';
  let notice: string | undefined;
  let lastClear = Number.NEGATIVE_INFINITY;
  let shown: string[] = [];
  let active = true;
  let quit: () => void = () => undefined;
  const quitting = new Promise<void>((resolve) => (quit = resolve));
  const hint = `${keymap.hint('submit')} queue · ${keymap.hint('newline')} newline · ${keymap.hint('clear')}×2 quit`;

  const paint = () => {
    if (!active) return;
    const width = output.columns ?? 80;
    const height = output.rows ?? 24;
    const frame = startupFrame({
      width,
      height,
      theme,
      phase,
      seconds: Math.floor((now() - startedAt) / 1000),
      queued,
      notice,
      editor: editor.render(width),
      label: options.label,
      hint,
    });
    shown = frame.lines;
    // Every row in full over an erased row: a small frame, at most once a keystroke or a second.
    const rows = Array.from({ length: height }, (_, y) => `\x1b[${y + 1};1H\x1b[2K${frame.lines[y] ?? ''}${SGR_RESET}`);
    const cursor =
      frame.cursor === null ? CURSOR_HIDE : `\x1b[${frame.cursor.row + 1};${frame.cursor.col + 1}H${CURSOR_SHOW}`;
    output.write(synchronized(rows.join('') + cursor));
  };

  const handle = (event: InputEvent) => {
    if (event.type !== 'key' && event.type !== 'paste') return;
    notice = undefined;
    const actions = event.type === 'key' ? keymap.actionsFor(event) : [];
    if (actions.includes('clear')) {
      if (!editor.isEmpty()) editor.clear();
      else if (now() - lastClear < QUIT_WINDOW_MS) return quit();
      else notice = `Press ${keymap.hint('clear')} again to quit`;
      lastClear = now();
      return paint();
    }
    if (actions.includes('quit') && editor.isEmpty()) return quit();
    const result = editor.handle(event, keymap);
    if (result.kind === 'submit' && result.text.trim() !== '') queued.push(result.text);
    paint();
  };

  const decoder = createInputDecoder({ onEvent: handle });
  const onData = (chunk: Buffer | string) => decoder.feed(typeof chunk === 'string' ? chunk : new Uint8Array(chunk));
  const onResize = () => paint();
  const ticker = setInterval(paint, TICK_MS);
  ticker.unref();
  const stop = () => {
    active = false;
    clearInterval(ticker);
    input.off('data', onData);
    output.off('resize', onResize);
    decoder.dispose();
  };

  if ('setRawMode' in input && typeof input.setRawMode === 'function' && output.isTTY === true) input.setRawMode(true);
  output.write(enterTerminal() + AUTOWRAP_OFF);
  input.on('data', onData);
  output.on('resize', onResize);
  input.resume();
  paint();

  return {
    phase(what) {
      phase = what;
      paint();
    },
    quitting,
    handOver() {
      stop();
      // Keys typed from now on wait in the stream for the TUI.
      input.pause();
      return { draft: editor.text(), queued: [...queued] };
    },
    restore() {
      if (active) stop();
      output.write(restoreTerminal());
      if ('setRawMode' in input && typeof input.setRawMode === 'function' && output.isTTY === true) {
        input.setRawMode(false);
      }
      input.pause();
      const unsent = [...queued, ...(editor.isEmpty() ? [] : [editor.text()])];
      if (unsent.length > 0) output.write(`Typed while pi started, not sent:\n\n${unsent.join('\n\n')}\n\n`);
    },
    lines: () => shown.map((line) => stripAnsi(line)),
  };
}
