import { err, ok, type Result } from 'neverthrow';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { Editor } from '@pi/editor';
import { CallbackFailures, runFacets, type FacetRunError, type RunnableFacet } from '@pi/host-kit';
import type { CodingAgentTuiPluginContext, SubmitAction, TuiFacilities } from '@pi/plugin-api';
import type { ConnectionState } from '@pi/remote';
import {
  createInputDecoder,
  defaultKeymap,
  isAction,
  keyId,
  truncate,
  type InputEvent,
  type Keymap,
} from '@pi/terminal';
import type { RpcClient } from '@pi/transport-trpc';
import { CommandRegistry } from './command-registry';
import { MENU_ROWS } from './completion-menu';
import { CompletionRegistry } from './completion-registry';
import { DIALOG_ARMING_MS, confirmDialog, inputDialog, selectDialog, type Dialog } from './dialogs';
import { composeFrame } from './frame';
import { RenderScheduler } from './render-scheduler';
import { SlotRegistry } from './slot-registry';
import type { ExternalEditor } from './external-editor';
import { registerDiagnostics } from './diagnostics-status';
import { registerPresence } from './presence-status';
import { EditorChoice } from './editor-choice';
import { registerHostCommands } from './host-commands';
import { PromptCompletion } from './prompt-completion';
import { slashCompletionSource } from './slash-completion';
import { clipboardSequence } from './clipboard';
import { createTerminalScreen, type TerminalIO, type TerminalScreen } from './terminal-screen';
import { LiveTheme } from './theme';
import { ToolRendererRegistry } from './tool-renderer-registry';
import { TranscriptView } from './transcript-view';
import { tuiFacetContext } from './tui-context';
import { TuiFacetSet, registerReloadCommand, type TuiFacetSource } from './tui-reload';
import { OverlayLayer } from './overlay-layer';
import { ViewComponentRegistry } from './view-component-registry';
import { ViewPresenter } from './view-presenter';

type TuiFacet = RunnableFacet<CodingAgentTuiPluginContext>;

/** `F`: the facets' type as the application knows them (with where each was loaded from, say), given back by `facets()`. */
export interface TuiHostOptions<F extends TuiFacet = TuiFacet> {
  readonly facets: readonly F[];
  /** The connection to the session this TUI presents. */
  readonly client: RpcClient;
  readonly terminal: TerminalIO;
  readonly keymap?: Keymap;
  /** Shown in the footer: where the session works, and which session it is. */
  readonly label?: string;
  /** Called when the user quits (Ctrl+C twice, Ctrl+D on an empty editor). */
  readonly onQuit?: () => void;
  /** Attaches the TUI to another session (the application restarts the host on it); absent: switching is refused. */
  readonly switchSession?: (sessionId: string) => Promise<void>;
  /** What the `externalEditor` key (Ctrl+G) runs on the prompt; absent: the key says there is none. */
  readonly externalEditor?: ExternalEditor;
  /** Text the editor starts with: what was typed into the previous host when the TUI switched sessions. */
  readonly draft?: string;
  /**
   * Prompts typed before the TUI could attach (on the startup screen): submitted once connected, in order, as Enter
   * on a busy session would queue them (follow-ups), slash commands run as typed.
   */
  readonly submitWhenConnected?: readonly string[];
  readonly now?: () => number;
  /** Where `/reload` reads this TUI's plugin set anew; absent: `/reload` reloads the session's only. */
  readonly reloadFacets?: TuiFacetSource<F>;
  /** How this terminal names itself to the other clients of the session (presence); default `user@host`. */
  readonly presenceName?: string;
}

export interface TuiHost<F extends TuiFacet = TuiFacet> {
  readonly screen: TerminalScreen;
  /** How many frames were painted (for tests and benchmarks). */
  readonly frames: number;
  /** Plugin callbacks and widgets that failed, by plugin. */
  failures(): readonly string[];
  /** Paints now instead of at the next frame (tests). */
  flush(): void;
  /** What the editor holds, pastes expanded: carried to the next host when the TUI switches sessions. */
  draft(): string;
  /** What `/reload` does (the session's plugins, then this TUI's), for `--dev`. */
  reload(): Promise<void>;
  /** The plugin facets running now: those the host started with, or the last `/reload`'s that ran. */
  facets(): readonly F[];
  stop(): Promise<void>;
}

/** Well-known command ids the host's own key actions run, when a facet registered them. */
export const ACTION_COMMANDS = {
  interrupt: 'chat.interrupt',
  modelPicker: 'models.pick',
  thinkingCycle: 'thinking.cycle',
  dequeue: 'chat.dequeue',
} as const;

type SubmitHandler = (text: string, context: Context, action: SubmitAction) => void | Promise<void>;

const QUIT_WINDOW_MS = 1500;
const NOTICE_MS = 5000;

/**
 * The TUI app host: a terminal screen, one input decoder, one editor, the transcript view, and the facets of
 * the manifest's `tui` entries, each with a context over the session connection. It holds no authority: all it
 * shows comes from replicated state, events and interactions the facets consume.
 */
export async function startTuiHost<F extends TuiFacet = TuiFacet>(
  options: TuiHostOptions<F>,
): Promise<Result<TuiHost<F>, FacetRunError>> {
  const now = options.now ?? (() => performance.now());
  const keymap = options.keymap ?? defaultKeymap;
  const liveTheme = new LiveTheme(() => {
    transcript.invalidate();
    render();
  });
  const theme = liveTheme.theme;
  const screen = createTerminalScreen(options.terminal);
  // Plugin failures are kept as the providing hosts keep them (latest 64, by plugin); `/diagnostics` lists them.
  const callbackFailures = new CallbackFailures();
  const fail = (owner: string, message: string) => callbackFailures.record(owner, message);
  const failures = () => callbackFailures.list().map(({ owner, message }) => `${owner}: ${message}`);
  const commands = new CommandRegistry();
  const renderers = new ToolRendererRegistry();
  const slots = new SlotRegistry(fail);
  const transcript = new TranscriptView((key, message) => fail(`transcript ${key}`, message));
  const editor = new Editor({ markerStyle: (label) => theme.fg('accent', label) });
  const completionSources = new CompletionRegistry();
  completionSources.add('host', slashCompletionSource(commands));
  const bindings = new Map<string, { owner: string; commandId: string }>();
  const submitHandlers: Array<SubmitHandler> = [];
  const notices: Array<{ text: string; level: 'info' | 'warning' | 'error'; until: number }> = [];
  const reachTopListeners = new Set<() => void>();
  let dialog: Dialog | undefined;
  /** Interactions of the session whose handlers are running: each waits for the user's answer. */
  let answering = 0;
  let dialogOpenedAt = Number.NEGATIVE_INFINITY;
  let expanded = false;
  let lastClear = Number.NEGATIVE_INFINITY;
  let connection: ConnectionState = options.client.connection.value;
  let stopped = false;
  /** Wakes the prompts waiting in `submitWhenConnected` when the connection changes or the host stops. */
  let wakeQueued: () => void = () => undefined;
  /** While an external editor has the terminal: no keys are read and nothing is painted. */
  let handedOver = false;

  const scheduler = new RenderScheduler(() => paint());
  const render = () => scheduler.request();
  const viewComponents = new ViewComponentRegistry();
  const views = new ViewPresenter({
    client: options.client,
    components: viewComponents,
    slots,
    theme,
    changed: render,
    fail,
  });
  const overlays = new OverlayLayer(slots, views, now);
  const editorChoice = new EditorChoice(slots, fail);
  const completion = new PromptCompletion({
    editor,
    sources: completionSources,
    keymap,
    // The menu gives way on a small terminal, as the transcript does.
    rows: () => Math.max(3, Math.min(MENU_ROWS, screen.rows - 14)),
    changed: render,
    fail,
    submit: (text, action) => void submit(text, action),
  });

  const notify: TuiFacilities['notify'] = (text, level = 'info') => {
    notices.push({ text, level, until: now() + NOTICE_MS });
    if (notices.length > 3) notices.shift();
    render();
    setTimeout(render, NOTICE_MS + 10).unref?.();
  };

  function openDialog<T>(make: (settle: (value: T) => void) => Dialog, cancelled: T, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.resolve(cancelled);
    return new Promise<T>((resolve) => {
      const previous = dialog;
      let opened: Dialog | undefined = undefined;
      const settle = (value: T) => {
        signal?.removeEventListener('abort', onAbort);
        if (dialog === opened) dialog = previous;
        render();
        resolve(value);
      };
      const onAbort = () => opened?.cancel();
      opened = make(settle);
      dialog = opened;
      dialogOpenedAt = now();
      signal?.addEventListener('abort', onAbort, { once: true });
      render();
    });
  }

  const facilities: TuiFacilities = {
    select: (title, choices, dialogOptions) =>
      openDialog<string | undefined>(
        (settle) => selectDialog(title, choices, now(), settle, dialogOptions?.body),
        undefined,
        dialogOptions?.signal,
      ),
    input: (title, placeholder = '', dialogOptions) =>
      openDialog<string | undefined>(
        (settle) =>
          inputDialog(title, placeholder, now(), settle, dialogOptions?.masked === true, dialogOptions?.message),
        undefined,
        dialogOptions?.signal,
      ),
    confirm: (title, message, dialogOptions) =>
      openDialog<boolean>((settle) => confirmDialog(title, message, now(), settle), false, dialogOptions?.signal),
    notify,
    copyToClipboard: (text) => options.terminal.output.write(clipboardSequence(text)),
    theme,
    setTheme: (definition) => liveTheme.apply(definition),
    chooseEditor: (owner) => {
      editorChoice.choose(owner);
      render();
    },
    requestRender: render,
    keyHint: (action) => (isAction(action) ? keymap.hint(action) : ''),
    awaitingAnswer: () => answering > 0 || overlays.takesKeys(),
  };
  const ui = Object.freeze(facilities);

  const connected = () => connection.status === 'connected';

  async function runCommand(id: string, args: string): Promise<void> {
    const command = commands.get(id);
    if (command === undefined) return notify(`No command "${id}"`, 'warning');
    if (command.needsSession === true && !connected()) {
      return notify(
        `Not connected to the session: ${command.slash === undefined ? id : `/${command.slash}`} needs it`,
        'warning',
      );
    }
    try {
      await command.run(args, BACKGROUND_CONTEXT);
    } catch (error) {
      notify(`${command.slash === undefined ? id : `/${command.slash}`} failed: ${messageOf(error)}`, 'error');
    }
  }

  async function submit(text: string, action: SubmitAction): Promise<void> {
    const slash = commands.parseSlash(text);
    if (slash !== undefined) {
      if ('unknown' in slash) {
        editor.setText(text);
        return notify(
          `Unknown command /${slash.unknown} — /help lists them (text after it sends it to the model)`,
          'warning',
        );
      }
      return runCommand(slash.command.id, slash.args);
    }
    return sendPrompt(text, action);
  }

  /** Hands text to the prompt handler (the latest `onSubmit`), never reading it as a slash command. */
  async function sendPrompt(text: string, action: SubmitAction): Promise<void> {
    const handler = submitHandlers.at(-1);
    if (handler === undefined) return notify('Nothing here takes a prompt', 'warning');
    if (!connected()) {
      editor.setText(text);
      return notify('Not connected to the session: the prompt stays in the editor', 'warning');
    }
    try {
      await handler(text, BACKGROUND_CONTEXT, action);
    } catch (error) {
      notify(`The prompt failed: ${messageOf(error)}`, 'error');
    }
  }

  function handleInput(event: InputEvent): void {
    if (stopped) return;
    if (dialog !== undefined) {
      // What is typed before a dialog takes keys was meant for the editor (the user had not seen the dialog yet).
      if (now() - dialogOpenedAt < DIALOG_ARMING_MS) {
        if (event.type === 'paste') editor.paste(event.text);
        else if (event.type === 'key' && event.text !== undefined && !event.ctrl && !event.alt) {
          editor.handle(event, keymap);
        }
      }
      if (event.type === 'key') dialog.handleKey(event, now());
      else if (event.type === 'paste') dialog.handlePaste(event.text);
      return render();
    }
    if (event.type === 'paste') {
      if (!overlays.handlePaste(event.text) && !editorChoice.handlePaste(event.text)) editor.paste(event.text);
      return render();
    }
    if (event.type !== 'key') return;
    if (overlays.handleKey(event, (typed) => editor.handle(typed, keymap))) return render();
    completion.update();
    if (completion.handleKey(event)) return render();
    const actions = keymap.actionsFor(event);
    const height = Math.max(1, screen.rows - 6);
    if (actions.includes('clear')) {
      if (!editor.isEmpty()) {
        editor.clear();
      } else if (now() - lastClear < QUIT_WINDOW_MS) {
        return quit();
      } else {
        notify(`Press ${keymap.hint('clear')} again to quit`);
      }
      lastClear = now();
      return render();
    }
    if (actions.includes('quit') && editor.isEmpty()) return quit();
    if (actions.includes('pageUp') || actions.includes('pageDown')) {
      transcript.scroll(
        actions.includes('pageUp') ? Math.ceil(height / 2) : -Math.ceil(height / 2),
        height,
        screen.columns,
      );
      // At the first line held, the transcript's owner may fetch older entries (a session opened from its file).
      if (actions.includes('pageUp') && transcript.atTop(height, screen.columns)) {
        for (const listener of [...reachTopListeners]) listener();
      }
      return render();
    }
    if (actions.includes('scrollToEnd') && !transcript.following) {
      transcript.scrollToEnd();
      return render();
    }
    if (actions.includes('externalEditor')) return void editExternally();
    if (actions.includes('expandTools')) {
      expanded = !expanded;
      transcript.invalidate();
      return render();
    }
    for (const action of ['interrupt', 'modelPicker', 'thinkingCycle', 'dequeue'] as const) {
      if (actions.includes(action) && commands.get(ACTION_COMMANDS[action]) !== undefined) {
        void runCommand(ACTION_COMMANDS[action], '');
        return render();
      }
    }
    const bound = bindings.get(keyId(event));
    if (bound !== undefined) {
      void runCommand(bound.commandId, '');
      return render();
    }
    if (editorChoice.handleKey(event)) return render();
    const result = editor.handle(event, keymap);
    if (result.kind === 'submit') void submit(result.text, result.action);
    render();
  }

  function quit(): void {
    options.onQuit?.();
  }

  /** Ctrl+G: the prompt goes to the user's editor and what they saved comes back (one trailing newline dropped). */
  async function editExternally(): Promise<void> {
    if (options.externalEditor === undefined || handedOver) {
      return notify('No external editor here: the prompt stays as it is', 'warning');
    }
    handedOver = true;
    options.terminal.input.off('data', onData);
    try {
      const edited = await options.externalEditor(editor.text());
      if (edited.isOk()) editor.setText(edited.value.replace(/\r?\n$/, ''));
      else notify(edited.error, 'warning');
    } finally {
      handedOver = false;
      if (!stopped) {
        options.terminal.input.on('data', onData);
        screen.redrawAll();
        render();
      }
    }
  }

  function paint(): void {
    if (stopped || handedOver) return;
    const time = now();
    while (notices.length > 0 && (notices[0]?.until ?? 0) <= time) notices.shift();
    completion.update();
    const frame = composeFrame({
      width: screen.columns,
      height: screen.rows,
      theme,
      slots,
      transcript,
      editor: editorChoice.render(screen.columns) ?? editor.render(screen.columns),
      dialog: dialog?.render(screen.columns, theme),
      overlay: overlays.lines(screen.columns, theme, (line, width) => truncate(line, width)),
      notices,
      connection,
      label: options.label ?? '',
      // A dialog has the keys: the menu waits behind it.
      completions: dialog === undefined ? completion.lines(theme) : [],
      hint: `${keymap.hint('submit')} send · ${keymap.hint('newline')} newline · ${keymap.hint('clear')}×2 quit`,
      fit: (line, width) => truncate(line, width),
    });
    screen.paint(frame.lines, dialog === undefined ? frame.cursor : null);
  }

  const decoder = createInputDecoder({ onEvent: handleInput });
  const onData = (chunk: Buffer | string) => {
    decoder.feed(typeof chunk === 'string' ? chunk : new Uint8Array(chunk));
    // What was typed is on screen once this input is handled, not a frame interval after a streamed word.
    scheduler.expedite();
  };
  options.terminal.input.on('data', onData);
  const stopResize = screen.onResize(() => {
    transcript.invalidate();
    render();
  });
  const stopConnection = options.client.connection.subscribe((state) => {
    connection = state;
    wakeQueued();
    render();
  });

  const parts = {
    client: options.client,
    session: Object.freeze({
      switchTo: (sessionId: string) =>
        options.switchSession?.(sessionId) ??
        Promise.reject(new Error('This TUI was attached by address and cannot switch sessions')),
    }),
    ui,
    answering() {
      answering += 1;
      render();
      return () => {
        answering -= 1;
        render();
      };
    },
    commands,
    runCommand,
    bind(owner: string, key: string, commandId: string) {
      const entry = { owner, commandId };
      bindings.set(key, entry);
      return () => {
        if (bindings.get(key) === entry) bindings.delete(key);
      };
    },
    renderers,
    slots,
    views: viewComponents,
    completions: completionSources,
    editor: {
      onSubmit(handler: SubmitHandler) {
        submitHandlers.push(handler);
        return () => {
          const index = submitHandlers.lastIndexOf(handler);
          if (index >= 0) submitHandlers.splice(index, 1);
        };
      },
      send: (text: string, action: SubmitAction = 'submit') => sendPrompt(text, action),
      setText: (text: string) => {
        editor.setText(text);
        render();
      },
      text: () => editor.text(),
    },
    transcript: {
      upsert: (key: string, block: Parameters<TranscriptView['upsert']>[1]) => {
        transcript.upsert(key, block);
        render();
      },
      remove: (key: string) => {
        transcript.remove(key);
        render();
      },
      clear: () => {
        transcript.clear();
        render();
      },
      get expanded() {
        return expanded;
      },
      onReachTop(listener: () => void) {
        reachTopListeners.add(listener);
        return () => void reachTopListeners.delete(listener);
      },
    },
  };

  registerHostCommands({ commands, slots, transcript: parts.transcript, keymap, bindings, theme, quit });
  const stopDiagnostics = registerDiagnostics({
    client: options.client,
    slots,
    commands,
    transcript: parts.transcript,
    theme,
    localFailures: callbackFailures,
    render,
  });
  const stopPresence = registerPresence({
    client: options.client,
    slots,
    theme,
    render,
    ...(options.presenceName === undefined ? {} : { name: options.presenceName }),
  });

  if (options.draft !== undefined && options.draft !== '') editor.setText(options.draft);
  const runSet = (facets: readonly F[]) =>
    runFacets(
      facets,
      (scope, facet) => tuiFacetContext(scope, facet, parts),
      (failure) => fail(failure.pluginId, failure.message),
    );
  const running = await runSet(options.facets);
  if (running.isErr()) {
    views.stop();
    stopDiagnostics();
    stopPresence();
    completion.dispose();
    options.terminal.input.off('data', onData);
    stopResize();
    stopConnection();
    decoder.dispose();
    scheduler.stop();
    screen.destroy();
    return err(running.error);
  }
  const facetSet = new TuiFacetSet(options.facets, running.value, runSet);
  const reload = registerReloadCommand({
    commands,
    client: options.client,
    facets: facetSet,
    source: options.reloadFacets,
    notify,
    fail,
  });
  // The session learns which views this terminal shows before anyone can ask it something.
  await views.ready();
  scheduler.flush();
  void submitQueued(options.submitWhenConnected ?? []);

  /** Sends each prompt once connected, after the previous one was handled (a command may take a while). */
  async function submitQueued(prompts: readonly string[]): Promise<void> {
    for (const text of prompts) {
      while (!connected() && !stopped) await new Promise<void>((resolve) => (wakeQueued = resolve));
      if (stopped) return;
      await submit(text, 'followUp');
    }
  }

  let stopping: Promise<void> | undefined;
  return ok({
    screen,
    get frames() {
      return scheduler.frames;
    },
    failures,
    flush: () => scheduler.flush(),
    draft: () => editor.text(),
    reload,
    facets: () => facetSet.facets,
    stop: () =>
      (stopping ??= (async () => {
        dialog?.cancel();
        await facetSet.stop();
        views.stop();
        stopped = true;
        wakeQueued();
        stopDiagnostics();
        stopPresence();
        completion.dispose();
        options.terminal.input.off('data', onData);
        stopResize();
        stopConnection();
        decoder.dispose();
        scheduler.stop();
        screen.destroy();
      })()),
  });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
