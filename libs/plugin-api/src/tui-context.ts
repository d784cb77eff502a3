import type { Context } from '@pi/context';
import type { JsonObject, JsonValue } from '@pi/json';
import type { ConsumingPluginContext } from './consuming-context';
import type { InteractiveComponent, ViewComponentContributions } from './tui-views';

/** A piece of terminal UI: lines of text (with SGR styling) for a given width. Never wider than `width`. */
export interface TuiComponent {
  render(width: number): string[];
}

export type ThemeColor = 'text' | 'accent' | 'muted' | 'dim' | 'success' | 'warning' | 'error' | 'toolTitle' | 'border';

/** How facets style text: named colours of the user's theme, never raw escape codes. */
export interface TuiTheme {
  fg(color: ThemeColor, text: string): string;
  bold(text: string): string;
}

/** A colour of a theme: the terminal's own (`'default'`), a 256-colour palette index, or `#rrggbb`. */
export type TuiThemeColorValue = 'default' | number | `#${string}`;

export interface TuiThemeStyle {
  readonly fg?: TuiThemeColorValue;
  readonly bg?: TuiThemeColorValue;
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly dim?: boolean;
  readonly underline?: boolean;
}

/** A whole theme: a style per named colour; one left out is the built-in dark theme's. */
export interface TuiThemeDefinition {
  readonly name: string;
  readonly styles: Partial<Readonly<Record<ThemeColor, TuiThemeStyle>>>;
}

export interface DialogOptions {
  /** Aborting closes the dialog; it then resolves as cancelled (undefined, or false for confirm). */
  readonly signal?: AbortSignal;
  /** `input` only: show each typed character as `•` (for a key or a password). */
  readonly masked?: boolean;
  /** `input` only: text shown above the field, wrapped to the screen (instructions, an address to open). */
  readonly message?: string;
  /** `select` only: what the choice is about, drawn between the title and the choices (a call to allow, its diff). */
  readonly body?: TuiComponent;
}

/** Dialogs and notices of the terminal host. Every dialog closes when its signal aborts. */
export interface TuiFacilities {
  /** Resolves with the chosen option, or undefined when cancelled (Esc) or aborted. Typing filters. */
  select(title: string, choices: readonly string[], options?: DialogOptions): Promise<string | undefined>;
  /** Resolves with the entered text, or undefined when cancelled or aborted. */
  input(title: string, placeholder?: string, options?: DialogOptions): Promise<string | undefined>;
  /** Resolves true only when the user confirms; Esc, closing or aborting is false. */
  confirm(title: string, message: string, options?: DialogOptions): Promise<boolean>;
  notify(message: string, level?: 'info' | 'warning' | 'error'): void;
  /**
   * Puts text on the clipboard of the terminal's machine (OSC 52: works over SSH and in tmux with `set-clipboard`;
   * a terminal that does not support it ignores it, so say what was copied).
   */
  copyToClipboard(text: string): void;
  readonly theme: TuiTheme;
  /**
   * Switches this terminal's theme: `theme` paints with it from the next frame on, cached renderings are dropped
   * and everything is repainted (the settings plugin applies the `theme` setting with it).
   */
  setTheme(definition: TuiThemeDefinition): void;
  /** Uses the editor the plugin of this id contributed to the `editor` slot ('': pi's own); the `editor` setting's value. */
  chooseEditor(owner: string): void;
  /** Asks for a repaint (coalesced into the next frame) after a facet's component changed. */
  requestRender(): void;
  /**
   * Says that text streams onto the screen (a model's answer) until the answered function is called: meanwhile the
   * host paints ~30 frames a second instead of ~60, so each frame shows more of the stream for the same work. Keys
   * still show at once, and the frame waiting when the stream ends is painted at the usual pace.
   */
  streaming(): () => void;
  /** The key bound to a keymap action (`interrupt`, `dequeue`, …) as the user configured it, for hints; '' if none. */
  keyHint(action: string): string;
  /**
   * Whether an interaction of the session (a permission, a question) waits for the user's answer in this terminal:
   * a run's status can then say it waits for the user rather than that it works.
   */
  awaitingAnswer(): boolean;
}

/** A command users run by key, by `/name`, or from another facet. */
export interface TuiCommand {
  /** A dotted id (`models.select`); keybindings name it. */
  readonly id: string;
  /** Shown by `/help`. */
  readonly description: string;
  /** The slash name (`model` for `/model`), when it can be typed. */
  readonly slash?: string;
  /** True when it needs the session: refused with a visible message while disconnected. */
  readonly needsSession?: boolean;
  /**
   * What it takes after its name, shown in the `/` menu and `/help` (`<title>`, `[file]`). When `required`, Enter in
   * the menu inserts `/name ` to type them; otherwise Enter runs the command at once.
   */
  readonly arguments?: { readonly hint: string; readonly required?: boolean };
  run(args: string, context: Context): void | Promise<void>;
}

export interface CommandContributions {
  /** Returns the remover; the plugin's scope also removes it. A second command with the same id is refused. */
  register(command: TuiCommand): () => void;
  list(): readonly TuiCommand[];
  /** Runs a command by id; resolves when it finished (errors are shown, never thrown at the caller). */
  run(id: string, args?: string): Promise<void>;
}

export interface KeybindingContributions {
  /** Binds a key (`ctrl+t`) to a command id, unless the user's keybindings file binds that command otherwise. */
  bind(key: string, commandId: string): () => void;
}

/** What a tool renderer gets of a finished call. */
export interface ToolResultView<Details extends JsonValue = JsonValue> {
  readonly text: string;
  readonly details: Details;
  readonly isError: boolean;
}

export interface ToolRenderer<Details extends JsonValue = JsonValue> {
  renderCall?(args: JsonObject, theme: TuiTheme): TuiComponent;
  renderResult?(result: ToolResultView<Details>, theme: TuiTheme, options: { expanded: boolean }): TuiComponent;
}

export interface ToolRendererContributions {
  /** The latest contribution for a tool name wins; removing it falls back to the previous one. */
  add<Details extends JsonValue = JsonValue>(toolName: string, renderer: ToolRenderer<Details>): () => void;
  /** The renderer in force for a tool (the transcript's owner renders other plugins' tools with it). */
  get(toolName: string): ToolRenderer | undefined;
}

/**
 * Fixed places of the screen facets add widgets to; additive; a widget that throws disappears, its slot stays.
 * `welcome` takes the transcript's place while the transcript holds nothing (a new session): each plugin says there
 * what a newcomer should know of it. `overlay` is drawn over the end of the transcript; an overlay widget with
 * `handleKey` takes the keys while it shows something. `editor` is exclusive: each plugin may contribute an editor
 * (an interactive component that gets the keys and pastes pi's editor would, and sends with `editor.send`); the
 * `editor` setting names the plugin whose editor is used, pi's own when none is named or the named one throws.
 */
export type SlotName =
  | 'header'
  | 'footer'
  | 'status'
  | 'editor.above'
  | 'editor.below'
  | 'overlay'
  | 'welcome'
  | 'editor';

export interface SlotContributions {
  add(slot: SlotName, widget: TuiComponent | InteractiveComponent): () => void;
}

/** One choice of a completion menu. */
export interface CompletionItem {
  /** What replaces the token being completed, its trigger included: `/model `, `@src/app.ts `, `@src/`. */
  readonly insert: string;
  /** What the menu shows; `insert` without its trailing space by default. */
  readonly label?: string;
  /** Shown dimmed beside the label. */
  readonly description?: string;
  /** Enter inserts it and sends the prompt at once (a command that needs nothing more); Tab only inserts it. */
  readonly submitOnEnter?: boolean;
}

/**
 * Completes a token of the prompt: from a trigger character (`/`, `@`) to the cursor, with no whitespace in it. The
 * host shows the items in a menu above the editor (arrows move, Tab or Enter accept, Escape closes).
 */
export interface CompletionSource {
  /** The one character that starts a token this source completes. */
  readonly trigger: string;
  /** `promptStart`: only as the prompt's first character (slash commands); `wordStart` (default): also after whitespace. */
  readonly position?: 'promptStart' | 'wordStart';
  /** Quiet time after the last keystroke before asking (for sources that ask the session); 0 by default. */
  readonly debounceMs?: number;
  /**
   * Items for `query` (the token after the trigger), best first. The signal aborts when the token changed before the
   * answer came: only the latest answer is shown, and a slow or failing source never holds up typing.
   */
  complete(query: string, signal: AbortSignal): readonly CompletionItem[] | Promise<readonly CompletionItem[]>;
}

export interface CompletionContributions {
  /** The latest source for a trigger is used; removing it falls back to the previous one. Returns the remover. */
  add(source: CompletionSource): () => void;
}

/** How the text was submitted: the `submit` key (Enter), or the `followUp` key (Alt+Enter: queue it). */
export type SubmitAction = 'submit' | 'followUp';

/** The prompt editor as facets see it: who receives submitted text, and the draft. */
export interface EditorAccess {
  /** The handler for submitted text that is not a slash command; the latest registration wins. */
  onSubmit(handler: (text: string, context: Context, action: SubmitAction) => void | Promise<void>): () => void;
  /**
   * Sends text as a prompt through that handler, as if submitted (`submit` by default), never read as a slash
   * command: a command that expands to a prompt (a template) sends it so. While disconnected it stays in the editor.
   */
  send(text: string, action?: SubmitAction): Promise<void>;
  setText(text: string): void;
  text(): string;
}

/** The main transcript area: facets push blocks (components), keyed so a block can be replaced as it streams. */
export interface TranscriptAccess {
  /** Adds or replaces the block with this key (in place, keeping its position). */
  upsert(key: string, block: TuiComponent): void;
  remove(key: string): void;
  /** Drops every block (for example before re-hydrating after a reconnect). */
  clear(): void;
  /** Whether tool output is expanded (Ctrl+O toggles it). */
  readonly expanded: boolean;
  /** Called when the user scrolls to the top of what is shown: the moment to load older entries. */
  onReachTop(listener: () => void): () => void;
}

/**
 * What a TUI facet receives: the consuming context (remote `use`, connection state, interaction handlers) plus
 * the terminal's facilities and contribution registries. It holds no session authority.
 */
/** Which session this TUI presents, and moving it to another one. */
export interface SessionAttachment {
  /**
   * Asks the application to attach this TUI to another running session (make sure it runs first, e.g. with the
   * session picker's `resume`). The current facets stop, and start again on the new connection. Rejects with a
   * message when this TUI cannot switch (it was attached by an explicit address).
   */
  switchTo(sessionId: string): Promise<void>;
}

export interface CodingAgentTuiPluginContext extends ConsumingPluginContext {
  readonly session: SessionAttachment;
  readonly ui: TuiFacilities;
  readonly commands: CommandContributions;
  readonly keybindings: KeybindingContributions;
  readonly toolRenderers: ToolRendererContributions;
  readonly slots: SlotContributions;
  readonly editor: EditorAccess;
  readonly completions: CompletionContributions;
  readonly transcript: TranscriptAccess;
  /** The components this terminal shows the session's views with. */
  readonly views: ViewComponentContributions;
}
