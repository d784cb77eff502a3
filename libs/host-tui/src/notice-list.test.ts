import { describe, expect, it } from 'vitest';
import { NoticeList } from './notice-list';

describe('notice list', () => {
  it('shows the three newest notices for five seconds each', () => {
    let time = 0;
    let changes = 0;
    const notices = new NoticeList(
      () => time,
      () => (changes += 1),
    );
    for (const text of ['a', 'b', 'c']) notices.notify(text);
    time = 1000;
    notices.notify('d', 'warning');
    expect(changes).toBe(4);
    expect(notices.shownAt(time).map((notice) => notice.text)).toEqual(['b', 'c', 'd']);
    expect(notices.shownAt(5000).map((notice) => notice.text)).toEqual(['d']);
    expect(notices.shownAt(6000)).toEqual([]);
  });
});
