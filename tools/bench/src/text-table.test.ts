import { describe, expect, it } from 'vitest';
import { formatSpread, formatTable } from './text-table';

describe('formatTable', () => {
  it('aligns names left and figures right, under a rule', () => {
    expect(
      formatTable(
        ['system', 'µs'],
        [
          ['pi', '120'],
          ['raw-ws', '7'],
        ],
      ),
    ).toEqual(['system   µs', '------  ---', 'pi      120', 'raw-ws    7']);
  });

  it('counts a multi-byte character as one column', () => {
    const [header, , row] = formatTable(['a', 'x'], [['b', '1–2']]);
    expect(header).toBe('a    x');
    expect(row).toBe('b  1–2');
  });
});

describe('formatSpread', () => {
  it('shows the median, then min and max', () => {
    expect(formatSpread({ median: 1234.4, min: 1000, max: 2000.6 })).toBe('1,234 [1,000–2,001]');
  });

  it('keeps the requested decimals', () => {
    expect(formatSpread({ median: 1.5, min: 1.25, max: 2 }, 2)).toBe('1.50 [1.25–2.00]');
  });
});
