import { describe, expect, it } from 'vitest';
import type { RowReport } from './row-report';
import { formatSoakTable, wrap } from './soak-table';

describe('wrap', () => {
  it('breaks at spaces within the width', () => {
    expect(wrap('one two three four', 9)).toEqual(['one two', 'three', 'four']);
  });

  it('cuts a word longer than the width', () => {
    expect(wrap('abcdefghij xy', 4)).toEqual(['abcd', 'efgh', 'ij', 'xy']);
  });

  it('gives one empty line for empty text', () => {
    expect(wrap('', 10)).toEqual(['']);
  });
});

const passed: RowReport = {
  row: 'fuzz',
  verdict: 'PASS',
  what: 'sent frames',
  counts: ['100 frames', '0 crashes'],
  figures: ['p99 2 ms'],
  reasons: [],
};
const failed: RowReport = {
  row: 'kill',
  verdict: 'FAIL',
  what: 'killed the session',
  counts: ['2 entries lost'],
  figures: [],
  reasons: ['0 transcript entries lost'],
};

describe('formatSoakTable', () => {
  it('prints one block per row with its result, counts and figures in columns', () => {
    expect(formatSoakTable([passed, failed])).toEqual([
      'row   result  what was done       counts          figures',
      '----  ------  ------------------  --------------  --------',
      'fuzz  PASS    sent frames         100 frames      p99 2 ms',
      '                                  0 crashes',
      '',
      'kill  FAIL    killed the session  2 entries lost',
      '',
      'kill FAIL: 0 transcript entries lost',
      '',
      '2 rows: 1 PASS, 1 FAIL, 0 SKIP',
    ]);
  });

  it('lists a skipped row with its reason', () => {
    const skipped: RowReport = { ...failed, row: 'full-disk', verdict: 'SKIP', reasons: ['skipped: needs root'] };
    expect(formatSoakTable([skipped]).slice(-3)).toEqual([
      'full-disk SKIP: skipped: needs root',
      '',
      '1 row: 0 PASS, 0 FAIL, 1 SKIP',
    ]);
  });
});
