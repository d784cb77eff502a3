import type { Editor } from '@pi/editor';
import type { EditorAccess, SessionAttachment, SubmitAction, TranscriptAccess } from '@pi/plugin-api';
import type { KeyBindings } from './input-router';
import type { PromptSubmission } from './prompt-submission';
import type { TranscriptView } from './transcript-view';
import type { TuiParts } from './tui-context';

export interface TuiPartsSources extends Omit<TuiParts, 'runCommand' | 'bind' | 'editor' | 'transcript' | 'session'> {
  /** Attaches the TUI to another session; absent: switching is refused. */
  readonly switchSession: ((sessionId: string) => Promise<void>) | undefined;
  readonly submission: PromptSubmission;
  readonly bindings: KeyBindings;
  readonly editor: Editor;
  readonly transcript: TranscriptView;
  /** Whether tool output is expanded now (Ctrl+O). */
  readonly expanded: () => boolean;
  /** Told when page up reaches the transcript's first line (`onReachTop`). */
  readonly reachTopListeners: Set<() => void>;
  readonly render: () => void;
}

/** What the host shares with every facet context: its registries, and the editor and transcript repainting on change. */
export function createTuiParts(sources: TuiPartsSources): TuiParts {
  const { submission, bindings, editor, transcript, reachTopListeners, render } = sources;
  const session: SessionAttachment = Object.freeze({
    switchTo: (sessionId: string) =>
      sources.switchSession?.(sessionId) ??
      Promise.reject(new Error('This TUI was attached by address and cannot switch sessions')),
  });
  const editorAccess: EditorAccess = {
    onSubmit: (handler) => submission.onSubmit(handler),
    send: (text: string, action: SubmitAction = 'submit') => submission.sendPrompt(text, action),
    setText: (text: string) => {
      editor.setText(text);
      render();
    },
    text: () => editor.text(),
  };
  const transcriptAccess: TranscriptAccess = {
    upsert: (key, block) => {
      transcript.upsert(key, block);
      render();
    },
    remove: (key) => {
      transcript.remove(key);
      render();
    },
    clear: () => {
      transcript.clear();
      render();
    },
    get expanded() {
      return sources.expanded();
    },
    onReachTop(listener) {
      reachTopListeners.add(listener);
      return () => void reachTopListeners.delete(listener);
    },
  };
  return {
    client: sources.client,
    session,
    ui: sources.ui,
    answering: sources.answering,
    commands: sources.commands,
    runCommand: (id, args) => submission.runCommand(id, args),
    bind(owner, key, commandId) {
      const entry = { owner, commandId };
      bindings.set(key, entry);
      return () => {
        if (bindings.get(key) === entry) bindings.delete(key);
      };
    },
    renderers: sources.renderers,
    slots: sources.slots,
    views: sources.views,
    completions: sources.completions,
    editor: editorAccess,
    transcript: transcriptAccess,
  };
}
