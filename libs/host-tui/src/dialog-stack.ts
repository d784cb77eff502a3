import type { TuiFacilities } from '@pi/plugin-api';
import type { InputEvent } from '@pi/terminal';
import { DIALOG_ARMING_MS, confirmDialog, inputDialog, selectDialog, type Dialog } from './dialogs';

/**
 * The modal dialogs facets open: the newest has the keys and is drawn; when it settles, the one it covered is back.
 * Each `open` answers its value when the user settles the dialog, or `cancelled` when its signal aborts.
 */
export class DialogStack {
  readonly #now: () => number;
  readonly #changed: () => void;
  #current: Dialog | undefined;
  #openedAt = Number.NEGATIVE_INFINITY;

  constructor(now: () => number, changed: () => void) {
    this.#now = now;
    this.#changed = changed;
  }

  /** The dialog that has the keys, if any. */
  get current(): Dialog | undefined {
    return this.#current;
  }

  open<T>(make: (settle: (value: T) => void) => Dialog, cancelled: T, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.resolve(cancelled);
    return new Promise<T>((resolve) => {
      const previous = this.#current;
      let opened: Dialog | undefined = undefined;
      const settle = (value: T) => {
        signal?.removeEventListener('abort', onAbort);
        if (this.#current === opened) this.#current = previous;
        this.#changed();
        resolve(value);
      };
      const onAbort = () => opened?.cancel();
      opened = make(settle);
      this.#current = opened;
      this.#openedAt = this.#now();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#changed();
    });
  }

  /**
   * Gives the event to the open dialog; false when none is open. What is typed before a dialog takes keys was meant
   * for the editor (the user had not seen the dialog yet): `typedBefore` gets it too.
   */
  handleInput(event: InputEvent, typedBefore: (event: InputEvent) => void): boolean {
    const dialog = this.#current;
    if (dialog === undefined) return false;
    if (this.#now() - this.#openedAt < DIALOG_ARMING_MS) typedBefore(event);
    if (event.type === 'key') dialog.handleKey(event, this.#now());
    else if (event.type === 'paste') dialog.handlePaste(event.text);
    return true;
  }

  /** The dialog facilities of `TuiFacilities`: select, input and confirm. */
  facilities(): Pick<TuiFacilities, 'select' | 'input' | 'confirm'> {
    const now = this.#now;
    return {
      select: (title, choices, options) =>
        this.open<string | undefined>(
          (settle) => selectDialog(title, choices, now(), settle, options?.body),
          undefined,
          options?.signal,
        ),
      input: (title, placeholder = '', options) =>
        this.open<string | undefined>(
          (settle) => inputDialog(title, placeholder, now(), settle, options?.masked === true, options?.message),
          undefined,
          options?.signal,
        ),
      confirm: (title, message, options) =>
        this.open<boolean>((settle) => confirmDialog(title, message, now(), settle), false, options?.signal),
    };
  }
}
