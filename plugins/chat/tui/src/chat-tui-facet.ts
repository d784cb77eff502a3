import {
  Chat,
  SESSION_FILE_UNWRITABLE,
  TranscriptReplica,
  applyChatCheckpoint,
  applyChatEvent,
  streamingViewFrom,
  type ModelWait,
  type StreamingView,
} from '@pi/chat';
import {
  RemoteError,
  type CodingAgentTuiPluginContext,
  type Context,
  type Facet,
  type SubmitAction,
} from '@pi/plugin-api';
import { wrapText } from '@pi/terminal';
import { entryBlock, streamingBlock, streamingLayout } from './entry-blocks';
import { draftWith, lastQueued, queueLines } from './queue-view';
import { registerCompactCommand } from './compact-command';
import { registerCopyCommand } from './copy-command';
import { registerExportCommand } from './export-command';
import { registerSessionCommand } from './session-command';
import { shellPrompt } from './shell-command';
import { parseShellInput } from './shell-input';
import { silentSeconds, statusLines, type ReceivedWait } from './status-lines';
import { TREE_COMMANDS, registerTreeCommands } from './tree-commands';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Two Escapes this close together, with no run to interrupt, open the session tree. */
const DOUBLE_ESCAPE_MS = 500;
/** Entries fetched each time the user scrolls to the top of what is loaded. */
const OLDER_PAGE = 100;
const STREAM_KEY = 'chat:streaming';

/**
 * The chat presentation: the transcript (durable entries through the TranscriptReplica, the streaming text
 * from checkpoint + deltas), the prompt (the editor's submit handler: Enter prompts, or steers while the agent
 * works; Alt+Enter queues a follow-up; `!command` and `!!command` run in the session), the queue above the editor (Alt+Up takes the last one back into the
 * editor), Esc to interrupt the run (what was queued comes back into the editor), and the status slot: a busy line
 * while a run is in progress (counting the seconds while the model is silent), and the session file's fault.
 */
export const chatTuiFacet: Facet<'tui'> = async (context: CodingAgentTuiPluginContext) => {
  const chat = await context.use(Chat);
  context.slots.add('welcome', {
    render: (width) => [
      '',
      ...wrapText(
        '!command runs a shell command; the model reads its output with your next prompt (!!command: it does not).',
        width,
      ),
    ],
  });
  const replica = new TranscriptReplica(chat, { connection: context.connection });
  context.own(() => replica.dispose());
  const { theme } = context.ui;
  let stream: StreamingView | null = streamingViewFrom(chat.streaming.value);
  const streamLayout = streamingLayout();
  let shown: string[] = [];
  let frame = 0;
  /** When the run last showed progress: the spinner stops while nothing streams (a dialog waits for the user). */
  let lastProgress = 0;
  const QUIET_MS = 1000;

  // `expanded` is read when a block renders, so Ctrl+O (which re-renders every block) changes the ones on screen.
  const blockContext = () => ({
    theme,
    get expanded() {
      return context.transcript.expanded;
    },
    renderer: (name: string) => context.toolRenderers.get(name),
  });

  /** Puts the replica's entries on screen: appends in place, and redraws everything when history changed shape. */
  const syncTranscript = () => {
    const ids = replica.entries.map((entry) => entry.id);
    const isAppend = shown.length <= ids.length && shown.every((id, index) => ids[index] === id);
    if (!isAppend) context.transcript.clear();
    for (const entry of replica.entries.slice(isAppend ? shown.length : 0)) {
      const block = entryBlock(entry, blockContext());
      if (block !== null) context.transcript.upsert(entry.id, block);
    }
    shown = ids;
    syncStream();
  };

  /** Ends the host's stream pace; set while an answer streams onto the screen. */
  let endStreaming: (() => void) | null = null;
  context.own(() => endStreaming?.());
  const syncStream = () => {
    context.transcript.remove(STREAM_KEY);
    const shown = stream !== null && replica.running === stream.operationId ? stream : null;
    if (shown !== null) {
      context.transcript.upsert(STREAM_KEY, streamingBlock(shown.text, theme, streamLayout));
      endStreaming ??= context.ui.streaming();
    } else {
      endStreaming?.();
      endStreaming = null;
    }
  };

  context.own(replica.subscribe(syncTranscript));
  context.own(
    chat.events.subscribe((event) => {
      lastProgress = Date.now();
      stream = applyChatEvent(stream, event);
      if (event.type === 'delta' || event.type === 'final' || event.type === 'settled') syncStream();
    }),
  );
  context.own(
    chat.streaming.subscribe((checkpoint) => {
      stream = applyChatCheckpoint(stream, checkpoint);
      syncStream();
    }),
  );
  context.own(
    context.transcript.onReachTop(() => {
      if (!replica.complete) void replica.loadOlder(OLDER_PAGE);
    }),
  );
  syncTranscript();

  let waiting: ReceivedWait | null = null;
  const receive = (wait: ModelWait | null) => {
    waiting = wait === null ? null : { wait, receivedAt: Date.now() };
  };
  receive(chat.waiting.value);
  context.own(
    chat.waiting.subscribe((wait) => {
      receive(wait);
      context.ui.requestRender();
    }),
  );
  context.own(chat.storage.subscribe(() => context.ui.requestRender()));

  // The spinner animates only while a run is in progress, every 100 ms while output arrives and once a second while
  // nothing does (a tool running, a silent model), with the run's elapsed seconds; idle, nothing repaints.
  let shownSeconds: number | null = null;
  let run: { operationId: string; startedAt: number } | null = null;
  const runStartedAt = () => {
    const running = replica.running;
    if (running === null) return (run = null);
    if (run?.operationId !== running) run = { operationId: running, startedAt: Date.now() };
    return run.startedAt;
  };
  const tick = () => {
    const started = runStartedAt() ?? Date.now();
    if (Date.now() - lastProgress > QUIET_MS) {
      const seconds = waiting !== null ? silentSeconds(waiting, Date.now()) : Math.floor((Date.now() - started) / 1000);
      if (seconds === shownSeconds) return;
      shownSeconds = seconds;
    }
    frame = (frame + 1) % SPINNER.length;
    context.ui.requestRender();
  };
  // Armed only while a run is in progress: an idle TUI has no timer to wake it.
  let spinner: ReturnType<typeof setInterval> | null = null;
  const syncSpinner = () => {
    if (replica.running !== null) {
      spinner ??= setInterval(tick, 100);
      spinner.unref?.();
    } else if (spinner !== null) {
      clearInterval(spinner);
      spinner = null;
    }
  };
  context.own(replica.subscribe(syncSpinner));
  context.own(() => {
    if (spinner !== null) clearInterval(spinner);
    spinner = null;
  });
  syncSpinner();
  const { keyHint } = context.ui;
  context.own(
    context.slots.add('status', {
      render: () =>
        statusLines({
          running: replica.running,
          spinner: SPINNER[frame] ?? '',
          storage: chat.storage.value,
          waiting,
          now: Date.now(),
          runStartedAt: runStartedAt(),
          answering: context.ui.awaitingAnswer(),
          theme,
          keyHint,
        }),
    }),
  );
  context.own(chat.queue.subscribe(() => context.ui.requestRender()));
  context.own(
    context.slots.add('editor.above', {
      render: (width) => queueLines(chat.queue.value.items, width, theme, keyHint('dequeue')),
    }),
  );

  /** Enter prompts, or steers the run in progress; Alt+Enter queues a follow-up (or starts a run when idle). */
  const send = async (text: string, action: SubmitAction, callContext: Context) => {
    if (action === 'followUp') return chat.followUp({ text }, callContext);
    if (replica.running === null) {
      const prompted = await chat.prompt({ text }, callContext);
      // A run started since this client last heard: steer it instead.
      if (prompted.error?.code !== 'busy') return prompted;
    }
    return chat.steer({ text }, callContext);
  };

  const shell = shellPrompt(context, chat);
  context.own(
    context.editor.onSubmit(async (text, callContext, action) => {
      const shellInput = parseShellInput(text);
      if (shellInput !== null) return shell.submit(shellInput, text);
      const response = await send(text, action, callContext);
      if (response.accepted) return;
      context.editor.setText(draftWith([text], context.editor.text()));
      context.ui.notify(response.error?.message ?? 'The prompt was not accepted', 'warning');
    }),
  );
  let lastIdleInterrupt = 0;
  context.commands.register({
    id: 'chat.interrupt',
    description:
      'Stop the ! command or interrupt the run in progress (its partial answer is kept); twice when idle, open the tree',
    needsSession: true,
    async run(_args, callContext) {
      // A `!` command this TUI started stops first; the run (if one started meanwhile) takes another Escape.
      if (shell.stop()) return;
      const running = replica.running;
      if (running === null) {
        // Escape twice, as in pi: the tree of the session, to go back to an earlier message.
        const now = Date.now();
        const twice = now - lastIdleInterrupt < DOUBLE_ESCAPE_MS;
        lastIdleInterrupt = twice ? 0 : now;
        if (twice) await context.commands.run(TREE_COMMANDS.open);
        return;
      }
      // The abort withdraws everything queued: it comes back into the editor, so nothing typed is lost.
      const queued = chat.queue.value.items.map((item) => item.text);
      try {
        await chat.requestAbort(running, callContext);
      } catch (error) {
        // The run stopped and the queue was withdrawn; only their record waits for the disk. Anything else failed.
        if (!(error instanceof RemoteError && error.code === SESSION_FILE_UNWRITABLE)) throw error;
        context.ui.notify(error.message, 'warning');
      }
      if (queued.length > 0) context.editor.setText(draftWith(queued, context.editor.text()));
    },
  });
  context.commands.register({
    id: 'chat.dequeue',
    description: 'Take the last queued message back into the editor',
    needsSession: true,
    async run(_args, callContext) {
      const last = lastQueued(chat.queue.value.items);
      if (last === undefined) return context.ui.notify('Nothing is queued');
      try {
        await chat.withdraw(last.id, callContext);
      } catch (error) {
        if (error instanceof RemoteError && error.code === 'queue_item_consumed')
          return context.ui.notify('Too late: that message was already delivered', 'warning');
        throw error;
      }
      context.editor.setText(draftWith([last.text], context.editor.text()));
    },
  });
  registerTreeCommands(context);
  registerCompactCommand(context);
  registerSessionCommand(context);
  registerCopyCommand(context, () => replica.entries);
  registerExportCommand(context);
};
