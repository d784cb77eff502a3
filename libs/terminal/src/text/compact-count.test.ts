import { describe, expect, it } from 'vitest';
import { compactCount } from './compact-count';

describe('compactCount', () => {
  it('shows small counts whole, thousands with one decimal below ten, then rounded, and millions', () => {
    expect([0, 950, 1_234, 9_999, 56_789, 999_499, 2_500_000].map(compactCount)).toEqual([
      '0',
      '950',
      '1.2k',
      '10.0k',
      '57k',
      '999k',
      '2.5M',
    ]);
  });
});
