import {
  Chat,
  TranscriptReplica,
  applyChatCheckpoint,
  applyChatEvent,
  streamingViewFrom,
  type StreamingView,
} from '@pi/chat';
import type { CodingAgentTuiPluginContext, Facet } from '@pi/plugin-api';
import { entryBlock, streamingBlock } from './entry-blocks';
import { registerTreeCommands } from './tree-commands';

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Entries fetched each time the user scrolls to the top of what is loaded. */
const OLDER_PAGE = 100;
const STREAM_KEY = 'chat:streaming';

/**
 * The chat presentation: the transcript (durable entries through the TranscriptReplica, the streaming text
 * from checkpoint + deltas), the prompt (the editor's submit handler), Esc to interrupt the run, and a busy
 * line in the status slot while a run is in progress.
 */
export const chatTuiFacet: Facet<'tui'> = async (context: CodingAgentTuiPluginContext) => {
  const chat = await context.use(Chat);
  const replica = new TranscriptReplica(chat, { connection: context.connection });
  context.own(() => replica.dispose());
  const { theme } = context.ui;
  let stream: StreamingView | null = streamingViewFrom(chat.streaming.value);
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

  const syncStream = () => {
    context.transcript.remove(STREAM_KEY);
    if (stream !== null && replica.running === stream.operationId)
      context.transcript.upsert(STREAM_KEY, streamingBlock(stream.text, theme));
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

  // The spinner animates only while a run is in progress; nothing repaints when nothing happens.
  const spinner = setInterval(() => {
    if (replica.running === null || Date.now() - lastProgress > QUIET_MS) return;
    frame = (frame + 1) % SPINNER.length;
    context.ui.requestRender();
  }, 100);
  spinner.unref?.();
  context.own(() => clearInterval(spinner));
  context.own(
    context.slots.add('status', {
      render: () =>
        replica.running === null
          ? []
          : [`${theme.fg('accent', SPINNER[frame] ?? '')} ${theme.fg('muted', 'working… esc to interrupt')}`],
    }),
  );

  context.own(
    context.editor.onSubmit(async (text, callContext) => {
      const response = await chat.prompt({ text }, callContext);
      if (response.accepted) return;
      context.editor.setText(text);
      const why =
        response.error?.code === 'busy'
          ? 'A run is in progress: esc interrupts it; your prompt stays in the editor'
          : (response.error?.message ?? 'The prompt was not accepted');
      context.ui.notify(why, 'warning');
    }),
  );
  context.commands.register({
    id: 'chat.interrupt',
    description: 'Interrupt the run in progress (its partial answer is kept)',
    needsSession: true,
    async run(_args, callContext) {
      const running = replica.running;
      if (running !== null) await chat.requestAbort(running, callContext);
    },
  });
  registerTreeCommands(context);
};
