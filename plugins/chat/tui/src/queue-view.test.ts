import { describe, expect, it } from 'vitest';
import type { QueuedMessage } from '@pi/chat';
import type { TuiTheme } from '@pi/plugin-api';
import { visibleWidth } from '@pi/terminal';
import { draftWith, lastQueued, queueLines } from './queue-view';

const plain: TuiTheme = { fg: (_color, text) => text, bold: (text) => text };
const item = (id: string, kind: QueuedMessage['kind'], text: string, second = 0): QueuedMessage => ({
  id,
  kind,
  text,
  queuedAt: `2025-01-01T00:00:${String(second).padStart(2, '0')}.000Z`,
});

describe('the queue above the editor', () => {
  it('shows nothing when nothing waits', () => {
    expect(queueLines([], 80, plain, 'alt+up')).toEqual([]);
  });

  it('lists each message with its kind and first line, then the bound key to take the last one back', () => {
    const lines = queueLines(
      [item('a', 'steer', 'use tabs'), item('b', 'follow-up', 'then run the tests\nand commit')],
      80,
      plain,
      'alt+up',
    );
    expect(lines).toEqual([
      '  steer     use tabs',
      '  follow-up then run the tests …',
      '  alt+up edits the last queued message',
    ]);
  });

  it('counts what it does not list, and keeps every line within the width', () => {
    const items = Array.from({ length: 8 }, (_, index) =>
      item(`i${index}`, 'follow-up', `${'long '.repeat(30)}${index}`),
    );
    const lines = queueLines(items, 30, plain, '');
    expect(lines[0]).toBe('  … 3 more queued');
    expect(lines).toHaveLength(6);
    expect(lines.every((line) => visibleWidth(line) <= 30)).toBe(true);
  });

  it('takes back the message queued last, whatever its kind', () => {
    const items = [item('s', 'steer', 'steer', 5), item('f', 'follow-up', 'follow', 3)];
    expect(lastQueued(items)?.id).toBe('s');
    expect(lastQueued([])).toBeUndefined();
  });

  it('puts queued texts back before the draft, skipping blanks', () => {
    expect(draftWith(['one', 'two'], 'typing')).toBe('one\ntwo\ntyping');
    expect(draftWith(['one'], '')).toBe('one');
  });
});
