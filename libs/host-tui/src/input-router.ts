import type { Editor } from '@pi/editor';
import type { TuiFacilities } from '@pi/plugin-api';
import { keyId, type InputEvent, type KeyEvent, type Keymap } from '@pi/terminal';
import type { CommandRegistry } from './command-registry';
import type { DialogStack } from './dialog-stack';
import type { EditorChoice } from './editor-choice';
import type { OverlayLayer } from './overlay-layer';
import type { PromptSubmission } from './prompt-submission';
import type { PromptCompletion } from './prompt-completion';
import type { TranscriptView } from './transcript-view';

/** Well-known command ids the host's own key actions run, when a facet registered them. */
export const ACTION_COMMANDS = {
  interrupt: 'chat.interrupt',
  modelPicker: 'models.pick',
  thinkingCycle: 'thinking.cycle',
  dequeue: 'chat.dequeue',
} as const;

const QUIT_WINDOW_MS = 1500;

/** A key a facet bound to one of its commands (`keybindings.bind`), by key id. */
export type KeyBindings = Map<string, { owner: string; commandId: string }>;

export interface InputRouterParts {
  readonly keymap: Keymap;
  readonly now: () => number;
  readonly editor: Editor;
  readonly dialogs: DialogStack;
  readonly overlays: OverlayLayer;
  readonly completion: PromptCompletion;
  readonly editorChoice: EditorChoice;
  readonly transcript: TranscriptView;
  readonly commands: CommandRegistry;
  readonly bindings: KeyBindings;
  readonly submission: PromptSubmission;
  readonly notify: TuiFacilities['notify'];
  /** The terminal's size now: page keys scroll by half the transcript's height. */
  readonly size: () => { readonly rows: number; readonly columns: number };
  readonly render: () => void;
  readonly quit: () => void;
  /** Ctrl+G: the prompt goes to the user's editor. */
  readonly editExternally: () => void;
  /** Ctrl+O: tool output expanded or not. */
  readonly toggleExpanded: () => void;
  /** Page up reached the first line held. */
  readonly reachedTop: () => void;
}

/**
 * Where each key and paste goes, first taker wins: an open dialog, an overlay that takes keys, the completion menu,
 * the host's own actions (quit, scroll, external editor, expand), the well-known commands, a facet's bound key, a
 * custom editor, and the editor.
 */
export class InputRouter {
  readonly #parts: InputRouterParts;
  #lastClear = Number.NEGATIVE_INFINITY;

  constructor(parts: InputRouterParts) {
    this.#parts = parts;
  }

  handle(event: InputEvent): void {
    const { editor, keymap, overlays, editorChoice, completion, render } = this.#parts;
    if (this.#parts.dialogs.handleInput(event, (typed) => this.#typedBeforeDialog(typed))) return render();
    if (event.type === 'paste') {
      if (!overlays.handlePaste(event.text) && !editorChoice.handlePaste(event.text)) editor.paste(event.text);
      return render();
    }
    if (event.type !== 'key') return;
    if (overlays.handleKey(event, (typed) => editor.handle(typed, keymap))) return render();
    completion.update();
    if (completion.handleKey(event)) return render();
    if (this.#hostAction(event)) return;
    const bound = this.#parts.bindings.get(keyId(event));
    if (bound !== undefined) {
      void this.#parts.submission.runCommand(bound.commandId, '');
      return render();
    }
    if (editorChoice.handleKey(event)) return render();
    const result = editor.handle(event, keymap);
    if (result.kind === 'submit') void this.#parts.submission.submit(result.text, result.action);
    render();
  }

  /** Typing and pastes still go to the editor until a dialog is armed. */
  #typedBeforeDialog(event: InputEvent): void {
    if (event.type === 'paste') this.#parts.editor.paste(event.text);
    else if (event.type === 'key' && event.text !== undefined && !event.ctrl && !event.alt) {
      this.#parts.editor.handle(event, this.#parts.keymap);
    }
  }

  /** The keymap's actions the host handles itself, and the well-known commands; true when the key was used. */
  #hostAction(event: KeyEvent): boolean {
    const { editor, keymap, transcript, commands, render, now } = this.#parts;
    const actions = keymap.actionsFor(event);
    const { rows, columns } = this.#parts.size();
    const height = Math.max(1, rows - 6);
    if (actions.includes('clear')) {
      if (!editor.isEmpty()) {
        editor.clear();
      } else if (now() - this.#lastClear < QUIT_WINDOW_MS) {
        this.#parts.quit();
        return true;
      } else {
        this.#parts.notify(`Press ${keymap.hint('clear')} again to quit`);
      }
      this.#lastClear = now();
      render();
      return true;
    }
    if (actions.includes('quit') && editor.isEmpty()) {
      this.#parts.quit();
      return true;
    }
    if (actions.includes('pageUp') || actions.includes('pageDown')) {
      transcript.scroll(actions.includes('pageUp') ? Math.ceil(height / 2) : -Math.ceil(height / 2), height, columns);
      // At the first line held, the transcript's owner may fetch older entries (a session opened from its file).
      if (actions.includes('pageUp') && transcript.atTop(height, columns)) this.#parts.reachedTop();
      render();
      return true;
    }
    if (actions.includes('scrollToEnd') && !transcript.following) {
      transcript.scrollToEnd();
      render();
      return true;
    }
    if (actions.includes('externalEditor')) {
      this.#parts.editExternally();
      return true;
    }
    if (actions.includes('expandTools')) {
      this.#parts.toggleExpanded();
      render();
      return true;
    }
    for (const action of ['interrupt', 'modelPicker', 'thinkingCycle', 'dequeue'] as const) {
      if (actions.includes(action) && commands.get(ACTION_COMMANDS[action]) !== undefined) {
        void this.#parts.submission.runCommand(ACTION_COMMANDS[action], '');
        render();
        return true;
      }
    }
    return false;
  }
}
