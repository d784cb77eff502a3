import type { QueuedMessage } from '@pi/chat';
import type { TuiTheme } from '@pi/plugin-api';
import { truncate } from '@pi/terminal';

/** At most this many queued messages are listed; the rest are counted. */
const SHOWN_ITEMS = 5;

const LABELS = { steer: 'steer', 'follow-up': 'follow-up' } as const;

/**
 * The queue above the editor: one line per waiting message (its kind and its first line), newest last, then how to
 * take the last one back. Nothing when the queue is empty.
 */
export function queueLines(
  items: readonly QueuedMessage[],
  width: number,
  theme: TuiTheme,
  dequeueKey: string,
): string[] {
  if (items.length === 0) return [];
  const shown = items.slice(-SHOWN_ITEMS);
  const lines = shown.map((item) => {
    const label = theme.fg(item.kind === 'steer' ? 'warning' : 'accent', LABELS[item.kind].padEnd(9));
    const firstLine = item.text.split('\n', 1)[0] ?? '';
    const more = item.text.includes('\n') ? ' …' : '';
    return truncate(`  ${label} ${theme.fg('muted', `${firstLine}${more}`)}`, width);
  });
  const hidden = items.length - shown.length;
  if (hidden > 0) lines.unshift(truncate(theme.fg('dim', `  … ${hidden} more queued`), width));
  if (dequeueKey !== '') lines.push(truncate(theme.fg('dim', `  ${dequeueKey} edits the last queued message`), width));
  return lines;
}

/** The message queued last (the newest `queuedAt`; the later one in the list on a tie), or undefined. */
export function lastQueued(items: readonly QueuedMessage[]): QueuedMessage | undefined {
  let last: QueuedMessage | undefined;
  for (const item of items) if (last === undefined || item.queuedAt >= last.queuedAt) last = item;
  return last;
}

/** The draft after queued texts come back to the editor: theirs first, in order, then what was being typed. */
export function draftWith(texts: readonly string[], draft: string): string {
  return [...texts, draft].filter((text) => text.trim() !== '').join('\n');
}
