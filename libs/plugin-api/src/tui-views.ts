import type { ViewDefinition } from './define-view';
import type { SlotName, TuiComponent, TuiTheme } from './tui-context';

/** A key as the host decoded it: its name (`enter`, `escape`, `a`), the text it types, its modifiers. */
export interface TuiKey {
  readonly name: string;
  readonly text?: string;
  readonly ctrl: boolean;
  readonly alt: boolean;
  readonly shift: boolean;
}

/**
 * A component that takes keys while it is shown as an overlay (over the transcript, before the editor sees
 * anything). `handleKey` returns whether it used the key; an overlay keeps the keys it does not use from the
 * editor all the same, except Esc on a dismissible view, which hides it in this terminal.
 */
export interface InteractiveComponent extends TuiComponent {
  handleKey?(key: TuiKey): boolean;
  handlePaste?(text: string): void;
}

/** One open view as its component sees it in this terminal. */
export interface ViewInstance<State, Message> {
  readonly viewId: string;
  /** The newest state: render from it alone (a late joiner or a reattached TUI never saw the older ones). */
  readonly state: State;
  /** Sends a message to the view's plugin; rejects with the session's error (a refused message says why). */
  send(message: Message): Promise<void>;
}

/** What a view's widget may do besides rendering: let go of what it holds when the view closes. */
export interface ViewWidget extends InteractiveComponent {
  dispose?(): void;
}

/** How this terminal shows views of one component (issue 22): where, and the widget per open view. */
export interface ViewComponent<State, Message> {
  readonly definition: ViewDefinition<State, Message>;
  /** A slot beside the transcript, or `overlay`: drawn over the transcript's end, taking keys while shown. */
  readonly placement: SlotName;
  /** `overlay` only: Esc (when the widget does not use it) hides the view in this terminal; it stays open. */
  readonly dismissible?: boolean;
  /** Called once per open view; the widget reads `view.state` whenever it renders. */
  create(view: ViewInstance<State, Message>, theme: TuiTheme): ViewWidget;
}

export interface ViewComponentContributions {
  /** The latest contribution for a component name is used; removing it falls back to the previous one. */
  add<State, Message>(component: ViewComponent<State, Message>): () => void;
}
