import type { HarnessEvent } from '@pi/plugin-api';

/** How long a title a prompt suggests may be, in characters as people count them (graphemes). */
export const MAX_PROMPT_TITLE = 60;

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * A session title from what the user asked: the text on one line (control characters and runs of white space
 * become one space), trimmed, and cut at a word boundary where one is near, with an ellipsis. Undefined when the
 * prompt holds no text.
 */
export function titleFromPrompt(text: string): string | undefined {
  const line = text
    .replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (line === '') return undefined;
  const graphemes = Array.from(segmenter.segment(line), (segment) => segment.segment);
  if (graphemes.length <= MAX_PROMPT_TITLE) return line;
  const cut = graphemes.slice(0, MAX_PROMPT_TITLE - 1);
  // Prefer ending at the last space of the final third over cutting a word in half.
  const space = cut.lastIndexOf(' ');
  const kept = space >= Math.floor((MAX_PROMPT_TITLE * 2) / 3) ? cut.slice(0, space) : cut;
  return `${kept.join('').trimEnd()}…`;
}

/** The text of the user's prompt an event records, if it records one (a message a plugin recorded is none). */
export function promptOf(event: HarnessEvent): string | undefined {
  if (event.type !== 'entry_appended' || event.entry.kind !== 'message') return undefined;
  if (event.entry.origin !== undefined) return undefined;
  const { message } = event.entry;
  if (message.role !== 'user') return undefined;
  return message.content.map((part) => part.text).join(' ');
}

/** The title the session's first prompt suggests, on its way to the coordinator. */
export interface FirstPromptTitle {
  /** Looks at a harness event: the first prompt with text becomes the suggestion, which is sent at once. */
  observe(event: HarnessEvent): void;
  /** Sends the suggestion again if it could not be sent or was not taken (call it when the coordinator is back). */
  flush(): void;
}

/**
 * Suggests a title once per session process, from the first prompt it records. `send` answers undefined when it
 * cannot reach the coordinator now; a send that fails is tried again at the next `flush`. The coordinator decides
 * whether the suggestion is taken (never over a title someone chose, never a second time).
 */
export function firstPromptTitle(send: (title: string) => Promise<unknown> | undefined): FirstPromptTitle {
  let title: string | undefined;
  let state: 'waiting' | 'unsent' | 'sending' | 'sent' = 'waiting';
  const flush = () => {
    if (state !== 'unsent' || title === undefined) return;
    const sending = send(title);
    if (sending === undefined) return;
    state = 'sending';
    sending.then(
      () => void (state = 'sent'),
      () => void (state = 'unsent'),
    );
  };
  return {
    observe(event) {
      if (state !== 'waiting') return;
      const prompt = promptOf(event);
      title = prompt === undefined ? undefined : titleFromPrompt(prompt);
      if (title === undefined) return;
      state = 'unsent';
      flush();
    },
    flush,
  };
}
