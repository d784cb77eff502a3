import type { KeyEvent } from '@pi/terminal';
import type { TuiComponent, TuiTheme } from '@pi/plugin-api';
import { wrapText } from '@pi/terminal';

/** A modal dialog: it takes every key while open and renders as a box over the bottom of the transcript. */
export interface Dialog {
  /** Returns true when the key was used (every key is, while a dialog is open, except what it ignores). */
  handleKey(key: KeyEvent, now: number): void;
  handlePaste(text: string): void;
  render(width: number, theme: TuiTheme): string[];
  /** Closes it as cancelled (Esc, an aborted signal, the host shutting down). */
  cancel(): void;
}

/** Keys typed within this long after a dialog opened still belong to what the user was typing before. */
export const DIALOG_ARMING_MS = 250;

const isTyped = (key: KeyEvent) => key.text !== undefined && !key.ctrl && !key.alt;

/** Pick one of `choices`; typing filters (case-insensitive substring), ↑/↓ move, Enter picks, Esc cancels. */
export function selectDialog(
  title: string,
  choices: readonly string[],
  openedAt: number,
  settle: (choice: string | undefined) => void,
  body?: TuiComponent,
): Dialog {
  let filter = '';
  let index = 0;
  let done = false;
  const finish = (choice: string | undefined) => {
    if (done) return;
    done = true;
    settle(choice);
  };
  const visible = () => choices.filter((choice) => choice.toLowerCase().includes(filter.toLowerCase()));
  return {
    handleKey(key, now) {
      const shown = visible();
      if (key.name === 'escape') return finish(undefined);
      if (now - openedAt < DIALOG_ARMING_MS && (key.name === 'enter' || isTyped(key))) return;
      if (key.name === 'enter')
        return shown.length === 0 ? undefined : finish(shown[Math.min(index, shown.length - 1)]);
      if (key.name === 'up') index = Math.max(0, index - 1);
      else if (key.name === 'down') index = Math.min(Math.max(0, shown.length - 1), index + 1);
      else if (key.name === 'backspace') filter = filter.slice(0, -1);
      else if (isTyped(key)) {
        filter += key.text;
        index = 0;
      }
    },
    handlePaste(text) {
      filter += text.replace(/\s+/g, ' ');
      index = 0;
    },
    render(width, theme) {
      const shown = visible();
      const selected = Math.min(index, Math.max(0, shown.length - 1));
      const lines = [theme.bold(title), ...(body?.render(width) ?? []), theme.fg('muted', `filter: ${filter}`)];
      // Keep the selection in a window of at most 10 rows.
      const start = Math.max(0, Math.min(selected - 4, shown.length - 10));
      shown.slice(start, start + 10).forEach((choice, offset) => {
        const active = start + offset === selected;
        lines.push(active ? theme.fg('accent', `› ${choice}`) : `  ${choice}`);
      });
      if (shown.length === 0) lines.push(theme.fg('dim', '  (nothing matches)'));
      lines.push(theme.fg('dim', '↑↓ move · enter select · esc cancel'));
      return lines;
    },
    cancel: () => finish(undefined),
  };
}

/** One line of text; Enter submits, Esc cancels. Masked, each character shows as `•` (a key, a password). */
export function inputDialog(
  title: string,
  placeholder: string,
  openedAt: number,
  settle: (text: string | undefined) => void,
  masked = false,
  message = '',
): Dialog {
  let text = '';
  let done = false;
  const finish = (value: string | undefined) => {
    if (done) return;
    done = true;
    settle(value);
  };
  return {
    handleKey(key, now) {
      if (key.name === 'escape') return finish(undefined);
      if (now - openedAt < DIALOG_ARMING_MS && (key.name === 'enter' || isTyped(key))) return;
      if (key.name === 'enter') return finish(text);
      if (key.name === 'backspace')
        text = [...new Intl.Segmenter().segment(text)]
          .slice(0, -1)
          .map((part) => part.segment)
          .join('');
      else if (isTyped(key)) text += key.text;
    },
    handlePaste(pasted) {
      text += pasted.replace(/\n/g, ' ');
    },
    render(width, theme) {
      return [
        theme.bold(title),
        ...(message === '' ? [] : wrapText(message, width)),
        text === '' ? theme.fg('dim', placeholder) : `${masked ? '•'.repeat([...text].length) : text}▏`,
        theme.fg('dim', 'enter submit · esc cancel'),
      ];
    },
    cancel: () => finish(undefined),
  };
}

/** Yes or no: `y`/Enter on "Yes" confirms; `n`, Esc and closing deny. Single keys count only once armed. */
export function confirmDialog(
  title: string,
  message: string,
  openedAt: number,
  settle: (confirmed: boolean) => void,
): Dialog {
  let yes = false;
  let done = false;
  const finish = (value: boolean) => {
    if (done) return;
    done = true;
    settle(value);
  };
  return {
    handleKey(key, now) {
      if (key.name === 'escape') return finish(false);
      if (now - openedAt < DIALOG_ARMING_MS) return;
      if (key.name === 'y') return finish(true);
      if (key.name === 'n') return finish(false);
      if (key.name === 'enter') return finish(yes);
      if (['left', 'right', 'tab', 'up', 'down'].includes(key.name)) yes = !yes;
    },
    handlePaste: () => undefined,
    render(width, theme) {
      const choice = (label: string, active: boolean) => (active ? theme.fg('accent', `[${label}]`) : ` ${label} `);
      return [
        theme.bold(title),
        ...wrapText(message, width),
        `${choice('Yes', yes)}  ${choice('No', !yes)}`,
        theme.fg('dim', 'y yes · n no · esc deny'),
      ];
    },
    cancel: () => finish(false),
  };
}
