import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '@pi/agent';
import { TRANSCRIPT_PAGE_CHARS, TRANSCRIPT_WINDOW } from '@pi/chat';
import { TranscriptLog } from './transcript-log';

const user = (id: string, parentId: string | null, text = id): SessionEntry => ({
  id,
  parentId,
  timestamp: '2025-01-01T00:00:00.000Z',
  kind: 'message',
  operationId: null,
  message: { role: 'user', content: [{ type: 'text', text }] },
});

/** A branch of `count` chained user entries u0…, as a tree would hold it. */
function chain(count: number, text = (index: number) => `u${index}`) {
  const branch: SessionEntry[] = [];
  for (let index = 0; index < count; index += 1) branch.push(user(`u${index}`, branch.at(-1)?.id ?? null, text(index)));
  return {
    branch,
    tree: { branch: () => branch, leafId: branch.at(-1)?.id ?? null },
  };
}

const ids = (page: { entries: ReadonlyArray<{ id: string }> }) => page.entries.map((entry) => entry.id);

describe('transcript log', () => {
  it('pages backwards by index, clamping a `before` past the end', () => {
    const log = new TranscriptLog(chain(250).tree, () => 'b');
    expect(log.window()).toMatchObject({ branch: 'b', firstIndex: 250 - TRANSCRIPT_WINDOW });
    expect(log.page(10, 4)).toMatchObject({ firstIndex: 6 });
    expect(ids(log.page(10, 4))).toEqual(['u6', 'u7', 'u8', 'u9']);
    expect(log.page(3, 200).firstIndex).toBe(0);
    expect(log.page(0, 5).entries).toEqual([]);
    expect(log.page(10_000, 2)).toMatchObject({ firstIndex: 248 });
  });

  it('stops a page before TRANSCRIPT_PAGE_CHARS of entries, keeping at least the newest one', () => {
    const huge = 'x'.repeat(TRANSCRIPT_PAGE_CHARS / 3);
    const log = new TranscriptLog(chain(6, (index) => (index >= 2 ? huge : `u${index}`)).tree);
    expect(log.window().firstIndex).toBe(4);
    expect(log.page(5, 10).firstIndex).toBe(3);
    const alone = new TranscriptLog(chain(2, () => 'x'.repeat(TRANSCRIPT_PAGE_CHARS + 1)).tree);
    expect(alone.page(2, 10).firstIndex).toBe(1);
  });

  it('entries written while nobody projected them come out as appends when the branch still starts with what it held', () => {
    const { branch, tree } = chain(3);
    const log = new TranscriptLog(tree, () => 'b');
    const leaf = user('u4', 'u3');
    branch.push(user('u3', 'u2'), leaf);
    const change = log.advance(leaf, { branch: () => branch, leafId: 'u4' });
    expect(change).toMatchObject({ kind: 'appended', appended: [{ index: 3 }, { index: 4 }] });
    expect(log.head()).toEqual({ branch: 'b', total: 5, running: null });
  });
});
