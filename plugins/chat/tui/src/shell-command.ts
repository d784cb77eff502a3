import type { ChatService } from '@pi/chat';
import { BACKGROUND_CONTEXT, RemoteError, withAbortSignal, type CodingAgentTuiPluginContext } from '@pi/plugin-api';
import { draftWith } from './queue-view';
import { shellLiveBlock } from './shell-blocks';
import type { ShellInput } from './shell-input';

const LIVE_KEY = 'chat:shell';

/** What the prompt's `!` handling offers the rest of the chat facet. */
export interface ShellPrompt {
  /** Runs a `!`/`!!` command typed in the editor (`text` as typed, put back should it not run). */
  submit(input: ShellInput, text: string): Promise<void>;
  /** Stops the command this TUI started, if one runs; false when none does (Escape then interrupts the run). */
  stop(): boolean;
}

/**
 * `!command` and `!!command` from the editor: the session runs them (its machine, its working directory) and
 * records them in the transcript; every client shows the running one from the `shellRun` state. Escape stops the
 * one this TUI started by cancelling its call. A command that did not run goes back into the editor.
 */
export function shellPrompt(context: CodingAgentTuiPluginContext, chat: ChatService): ShellPrompt {
  const { ui, editor } = context;
  let running: AbortController | null = null;

  const showLive = () => {
    const progress = chat.shellRun.value;
    // Only the TUI that started the command can stop it (by cancelling its call): only it shows the key.
    const stopKey = running === null ? '' : ui.keyHint('interrupt');
    if (progress === null) context.transcript.remove(LIVE_KEY);
    else context.transcript.upsert(LIVE_KEY, shellLiveBlock(progress, ui.theme, stopKey));
  };
  context.own(chat.shellRun.subscribe(showLive));
  showLive();

  return {
    async submit(input, text) {
      if (input.kind === 'empty') {
        editor.setText(draftWith([text], editor.text()));
        return ui.notify('Type a command after ! (its output goes to the model) or !! (it does not)', 'warning');
      }
      const controller = new AbortController();
      running = controller;
      try {
        const { command, includeInContext } = input;
        await chat.shell({ command, includeInContext }, withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
      } catch (error) {
        // Stopped on purpose: its entry says so, and there is nothing to put back.
        if (controller.signal.aborted) return;
        editor.setText(draftWith([text], editor.text()));
        const refused = error instanceof RemoteError && (error.code === 'busy' || error.code === 'invalid_command');
        const message = error instanceof Error ? error.message : String(error);
        ui.notify(refused ? message : `The command did not run: ${message}`, refused ? 'warning' : 'error');
      } finally {
        if (running === controller) running = null;
      }
    },
    stop() {
      if (running === null) return false;
      running.abort();
      running = null;
      return true;
    },
  };
}
