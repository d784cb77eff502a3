import { describe, expect, it } from 'vitest';
import { median, ratio, spread } from './stats';

describe('median', () => {
  it('takes the middle of an odd count, whatever the order', () => {
    expect(median([5, 1, 3])).toBe(3);
  });

  it('averages the two middle values of an even count', () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('does not reorder its input', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it('refuses an empty list', () => {
    expect(() => median([])).toThrow(RangeError);
  });
});

describe('spread', () => {
  it('reports median, min, max and the number of rounds', () => {
    expect(spread([10, 30, 20, 50, 40])).toEqual({ median: 30, min: 10, max: 50, rounds: 5 });
  });
});

describe('ratio', () => {
  it('divides, and gives NaN against zero', () => {
    expect(ratio(6, 3)).toBe(2);
    expect(ratio(1, 0)).toBeNaN();
  });
});
