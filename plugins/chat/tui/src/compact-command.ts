import { Chat, COMPACT_ERROR_CODES, type CompactErrorCode, type CompactResult } from '@pi/chat';
import { RemoteError, type CodingAgentTuiPluginContext } from '@pi/plugin-api';

/** The command id (keybindings name it). */
export const COMPACT_COMMAND = 'chat.compact';

/**
 * `/compact [instructions]`: summarize the older part of the conversation so the model reads less. The transcript
 * keeps everything (the session adds a marker entry); a notice says what was saved, or, in words, why nothing was.
 */
export function registerCompactCommand(context: CodingAgentTuiPluginContext): void {
  const { ui } = context;
  context.commands.register({
    id: COMPACT_COMMAND,
    slash: 'compact',
    description: 'Summarize the older conversation so the model reads less; /compact <what to keep> guides the summary',
    needsSession: true,
    async run(args, call) {
      const instructions = args.trim();
      ui.notify('Compacting the conversation…');
      try {
        const chat = await context.use(Chat);
        const result = await chat.compact(instructions === '' ? {} : { instructions }, call);
        ui.notify(compactedText(result));
      } catch (failure) {
        ui.notify(`Not compacted: ${compactFailureText(failure)}`, isRefusal(failure) ? 'warning' : 'error');
      }
    },
  });
}

export function compactedText(result: CompactResult): string {
  const { tokensBefore, tokensAfter, summarizedMessages, keptMessages } = result;
  const kept = keptMessages === 0 ? 'none kept' : `${keptMessages} kept as they are`;
  return (
    `Compacted: ~${tokensBefore.toLocaleString('en-US')} → ~${tokensAfter.toLocaleString('en-US')} tokens ` +
    `(${summarizedMessages} messages summarized, ${kept})`
  );
}

const KNOWN: ReadonlySet<string> = new Set(Object.values(COMPACT_ERROR_CODES));

/** One line: the known codes in words (the provider's error kept for a failed summary), any other with its code. */
export function compactFailureText(failure: unknown): string {
  if (!(failure instanceof RemoteError)) return failure instanceof Error ? failure.message : String(failure);
  if (!KNOWN.has(failure.code)) return `${failure.message} (${failure.code})`;
  switch (failure.code as CompactErrorCode) {
    case 'busy':
      return 'the agent is working: wait until the run ends (or esc interrupts it)';
    case 'no_model':
      return 'no model is selected (ctrl+l picks one)';
    case 'nothing_to_compact':
      return 'the conversation is short enough already';
    case 'invalid_instructions':
      return failure.message;
    case 'compaction_failed':
      return failure.message;
    case 'aborted':
      return 'cancelled';
    case 'session_file_unwritable':
      // Names the session file and the cause (a full disk, a read-only file system).
      return failure.message;
  }
}

function isRefusal(failure: unknown): boolean {
  return failure instanceof RemoteError && failure.code !== 'compaction_failed' && KNOWN.has(failure.code);
}
