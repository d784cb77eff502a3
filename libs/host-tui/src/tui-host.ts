import { err, ok, type Result } from 'neverthrow';
import { Editor } from '@pi/editor';
import { CallbackFailures, runFacets, type FacetRunError, type RunnableFacet } from '@pi/host-kit';
import type { CodingAgentTuiPluginContext, TuiFacilities } from '@pi/plugin-api';
import type { ConnectionState } from '@pi/remote';
import { defaultKeymap, isAction, type Keymap } from '@pi/terminal';
import type { RpcClient } from '@pi/transport-trpc';
import { CommandRegistry } from './command-registry';
import { MENU_ROWS } from './completion-menu';
import { CompletionRegistry } from './completion-registry';
import { DialogStack } from './dialog-stack';
import { composeFrame } from './frame';
import { InputRouter, type KeyBindings } from './input-router';
import { NoticeList } from './notice-list';
import { PromptSubmission } from './prompt-submission';
import { LineFit } from './line-fit';
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
import { TerminalInput } from './terminal-input';
import { createTerminalScreen, type TerminalIO, type TerminalScreen } from './terminal-screen';
import { LiveTheme } from './theme';
import { ToolRendererRegistry } from './tool-renderer-registry';
import { TranscriptView } from './transcript-view';
import { tuiFacetContext } from './tui-context';
import { createTuiParts } from './tui-parts';
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
  /** Whether a facet says text streams onto the screen now, so frames are paced at ~30 a second (tests). */
  readonly streaming: boolean;
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

export { ACTION_COMMANDS } from './input-router';

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
  const bindings: KeyBindings = new Map();
  const reachTopListeners = new Set<() => void>();
  /** Interactions of the session whose handlers are running: each waits for the user's answer. */
  let answering = 0;
  let expanded = false;
  let connection: ConnectionState = options.client.connection.value;
  let stopped = false;

  const scheduler = new RenderScheduler(() => paint());
  const render = () => scheduler.request();
  const notices = new NoticeList(now, render);
  const notify = notices.notify;
  const dialogs = new DialogStack(now, render);
  const submission = new PromptSubmission({
    commands,
    editor,
    notify,
    connected: () => connection.status === 'connected',
  });
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
    submit: (text, action) => void submission.submit(text, action),
  });

  const facilities: TuiFacilities = {
    ...dialogs.facilities(),
    notify,
    copyToClipboard: (text) => options.terminal.output.write(clipboardSequence(text)),
    theme,
    setTheme: (definition) => liveTheme.apply(definition),
    chooseEditor: (owner) => {
      editorChoice.choose(owner);
      render();
    },
    requestRender: render,
    streaming: () => scheduler.streaming(),
    keyHint: (action) => (isAction(action) ? keymap.hint(action) : ''),
    awaitingAnswer: () => answering > 0 || overlays.takesKeys(),
  };
  const ui = Object.freeze(facilities);

  const quit = () => options.onQuit?.();

  /** Ctrl+G: the prompt goes to the user's editor and what they saved comes back (one trailing newline dropped). */
  async function editExternally(): Promise<void> {
    const externalEditor = options.externalEditor;
    if (externalEditor === undefined || input.handedOver) {
      return notify('No external editor here: the prompt stays as it is', 'warning');
    }
    await input.handOver(
      async () => {
        const edited = await externalEditor(editor.text());
        if (edited.isOk()) editor.setText(edited.value.replace(/\r?\n$/, ''));
        else notify(edited.error, 'warning');
      },
      () => {
        screen.redrawAll();
        render();
      },
    );
  }

  const lineFit = new LineFit();
  const hint = `${keymap.hint('submit')} send · ${keymap.hint('newline')} newline · ${keymap.hint('clear')}×2 quit`;

  function paint(): void {
    if (stopped || input.handedOver) return;
    const dialog = dialogs.current;
    const shownNotices = notices.shownAt(now());
    completion.update();
    lineFit.nextFrame(screen.columns);
    const frame = composeFrame({
      width: screen.columns,
      height: screen.rows,
      theme,
      slots,
      transcript,
      editor: editorChoice.render(screen.columns) ?? editor.render(screen.columns),
      dialog: dialog?.render(screen.columns, theme),
      overlay: overlays.lines(screen.columns, theme, lineFit.fit),
      notices: shownNotices,
      connection,
      label: options.label ?? '',
      // A dialog has the keys: the menu waits behind it.
      completions: dialog === undefined ? completion.lines(theme) : [],
      hint,
      fit: lineFit.fit,
    });
    screen.paint(frame.lines, dialog === undefined ? frame.cursor : null);
  }

  const router = new InputRouter({
    keymap,
    now,
    editor,
    dialogs,
    overlays,
    completion,
    editorChoice,
    transcript,
    commands,
    bindings,
    submission,
    notify,
    size: () => screen,
    render,
    quit,
    editExternally: () => void editExternally(),
    toggleExpanded: () => {
      expanded = !expanded;
      transcript.invalidate();
    },
    reachedTop: () => {
      for (const listener of [...reachTopListeners]) listener();
    },
  });
  const input = new TerminalInput(
    options.terminal.input,
    (event) => {
      if (!stopped) router.handle(event);
    },
    // What was typed is on screen once this input is handled, not a frame interval after a streamed word.
    () => scheduler.expedite(),
  );
  const stopResize = screen.onResize(() => {
    transcript.invalidate();
    render();
  });
  const stopConnection = options.client.connection.subscribe((state) => {
    connection = state;
    submission.connectionChanged();
    render();
  });

  const parts = createTuiParts({
    client: options.client,
    switchSession: options.switchSession,
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
    submission,
    bindings,
    renderers,
    slots,
    views: viewComponents,
    completions: completionSources,
    editor,
    transcript,
    expanded: () => expanded,
    reachTopListeners,
    render,
  });

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
  const release = () => {
    stopDiagnostics();
    stopPresence();
    completion.dispose();
    input.dispose();
    stopResize();
    stopConnection();
    scheduler.stop();
    screen.destroy();
  };

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
    release();
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
  void submission.submitWhenConnected(options.submitWhenConnected ?? []);

  let stopping: Promise<void> | undefined;
  return ok({
    screen,
    get frames() {
      return scheduler.frames;
    },
    get streaming() {
      return scheduler.streams > 0;
    },
    failures,
    flush: () => scheduler.flush(),
    draft: () => editor.text(),
    reload,
    facets: () => facetSet.facets,
    stop: () =>
      (stopping ??= (async () => {
        dialogs.current?.cancel();
        await facetSet.stop();
        views.stop();
        stopped = true;
        submission.stop();
        release();
      })()),
  });
}
