import type { Editor } from '@pi/editor';
import type { CompletionItem, SubmitAction, TuiTheme } from '@pi/plugin-api';
import type { KeyEvent, Keymap } from '@pi/terminal';
import type { CompletionRegistry, RegisteredSource } from './completion-registry';
import { menuLines, menuOf, moveSelection, selectedItem, type CompletionMenu } from './completion-menu';
import { findToken, type CompletionToken } from './completion-token';

export interface PromptCompletionParts {
  readonly editor: Pick<Editor, 'snapshot' | 'edit' | 'submit'>;
  readonly sources: CompletionRegistry;
  readonly keymap: Keymap;
  /** How many items the menu shows at once (it depends on the terminal's height). */
  readonly rows: () => number;
  /** Asks for a repaint after an answer came in. */
  readonly changed: () => void;
  readonly fail: (owner: string, message: string) => void;
  /** Sends a prompt, as Enter in the editor does (the menu's Enter on a command that needs nothing more). */
  readonly submit: (text: string, action: SubmitAction) => void;
}

/** Items beyond this many are dropped: nobody scrolls further, and a runaway source cannot slow the frame. */
const MAX_ITEMS = 500;

interface ActiveToken {
  readonly token: CompletionToken;
  readonly entry: RegisteredSource;
  /** The owner, start and query: a change of any of them asks the source again. */
  readonly key: string;
}

/**
 * The completion menu of the prompt: which source's token the cursor is in, asking that source (after its debounce,
 * aborting the previous question, so only the latest answer shows), and the menu's keys — arrows move the highlight
 * (never the prompt history while it is open), Tab inserts, Enter inserts (and sends a command that needs nothing
 * more), Escape closes it until the token changes. A source that is slow or fails never holds up typing.
 */
export class PromptCompletion {
  readonly #parts: PromptCompletionParts;
  #active: ActiveToken | undefined;
  #menu: CompletionMenu | undefined;
  #dismissed: string | undefined;
  /** The user moved the highlight: new answers for the same token keep it on the same item when they can. */
  #moved = false;
  #pending: { readonly abort: AbortController; readonly timer: ReturnType<typeof setTimeout> | undefined } | undefined;
  /** While `update` runs: an answer given at once is painted by the frame being made, no repaint needed. */
  #updating = false;

  constructor(parts: PromptCompletionParts) {
    this.#parts = parts;
  }

  /** Follows the editor: call it before reading keys and before painting (it does nothing while the token is the same). */
  update(): void {
    const { text, cursor } = this.#parts.editor.snapshot();
    const sources = this.#parts.sources.active().map((entry) => ({
      trigger: entry.source.trigger,
      position: entry.source.position,
      entry,
    }));
    const found = findToken(text, cursor, sources);
    const active =
      found === undefined
        ? undefined
        : {
            token: found.token,
            entry: found.source.entry,
            key: `${found.source.entry.owner}\u0000${found.token.start}\u0000${found.token.query}`,
          };
    if (active?.key === this.#active?.key) return;
    this.#cancelPending();
    const previous = this.#active;
    this.#active = active;
    // Escape closes the menu of one token; once the token is gone, the next one opens it again.
    if (active === undefined) this.#dismissed = undefined;
    // Typing on in the same token keeps the items shown until the new answer replaces them (no flicker).
    const sameToken = previous?.entry === this.#active?.entry && previous?.token.start === this.#active?.token.start;
    if (!sameToken) {
      this.#menu = undefined;
      this.#moved = false;
    }
    if (this.#active === undefined) return;
    this.#updating = true;
    try {
      this.#ask(this.#active);
    } finally {
      this.#updating = false;
    }
  }

  /** Whether the menu is on screen (it has items and was not closed with Escape). */
  get open(): boolean {
    return this.#menu !== undefined && this.#active !== undefined && this.#dismissed !== this.#active.key;
  }

  /** The keys of an open menu; false when the key is not the menu's (the editor and the host then have it). */
  handleKey(event: KeyEvent): boolean {
    const menu = this.#menu;
    if (!this.open || menu === undefined) return false;
    const { keymap } = this.#parts;
    const up = keymap.matches(event, 'cursorUp') || keymap.matches(event, 'historyPrevious');
    const down = keymap.matches(event, 'cursorDown') || keymap.matches(event, 'historyNext');
    if (up || down) {
      this.#menu = moveSelection(menu, up ? -1 : 1, this.#parts.rows());
      this.#moved = true;
      return true;
    }
    if (event.name === 'tab' && !event.shift && !event.ctrl && !event.alt) return this.#accept(false);
    if (keymap.matches(event, 'submit')) return this.#accept(true);
    if (keymap.matches(event, 'interrupt')) {
      this.#dismissed = this.#active?.key;
      return true;
    }
    return false;
  }

  /** The menu's lines for the frame ([] when it is closed). */
  lines(theme: TuiTheme): string[] {
    return this.open && this.#menu !== undefined ? menuLines(this.#menu, this.#parts.rows(), theme) : [];
  }

  /** Aborts a question still out (the host stops). */
  dispose(): void {
    this.#cancelPending();
  }

  #accept(enter: boolean): boolean {
    const item = this.#menu === undefined ? undefined : selectedItem(this.#menu);
    const active = this.#active;
    if (item === undefined || active === undefined) return false;
    const send = enter && item.submitOnEnter === true;
    const { editor } = this.#parts;
    editor.edit(undefined, active.token.start, active.token.end, send ? item.insert.trimEnd() : item.insert);
    if (send) {
      const result = editor.submit('submit');
      if (result.kind === 'submit') this.#parts.submit(result.text, result.action);
    }
    // An inserted directory (`@src/`) is a token of its own: its contents are asked for at once.
    this.update();
    return true;
  }

  #ask(active: ActiveToken): void {
    const abort = new AbortController();
    const { owner, source } = active.entry;
    const settle = (items: readonly CompletionItem[] | undefined) => {
      if (abort.signal.aborted) return;
      this.#pending = undefined;
      const usable = (Array.isArray(items) ? items : []).filter(
        (item) => typeof item.insert === 'string' && item.insert !== '',
      );
      const previous = this.#moved ? this.#menu : undefined;
      this.#menu = usable.length === 0 ? undefined : menuOf(usable.slice(0, MAX_ITEMS), this.#parts.rows(), previous);
      if (!this.#updating) this.#parts.changed();
    };
    const failed = (error: unknown) => {
      if (abort.signal.aborted) return;
      this.#parts.fail(owner, `completing "${active.token.trigger}${active.token.query}": ${messageOf(error)}`);
      settle(undefined);
    };
    const run = () => {
      try {
        const answer = source.complete(active.token.query, abort.signal);
        if (Array.isArray(answer)) settle(answer);
        else Promise.resolve(answer).then(settle, failed);
      } catch (error) {
        failed(error);
      }
    };
    const delay = source.debounceMs ?? 0;
    const timer = delay > 0 ? setTimeout(run, delay) : undefined;
    this.#pending = { abort, timer };
    if (timer === undefined) run();
  }

  #cancelPending(): void {
    if (this.#pending === undefined) return;
    if (this.#pending.timer !== undefined) clearTimeout(this.#pending.timer);
    this.#pending.abort.abort();
    this.#pending = undefined;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
