import { describe, expect, it } from 'vitest';
import { parseProfileOptions } from './profile-options';

describe('test profile options', () => {
  it('takes projects, a count of files and a folder', () => {
    expect(
      parseProfileOptions(['--projects', '@pi/a,@pi/b', '--top', '5', '--out', '/o'], '/d')._unsafeUnwrap(),
    ).toEqual({
      projects: ['@pi/a', '@pi/b'],
      top: 5,
      out: '/o',
    });
    expect(parseProfileOptions([], '/d')._unsafeUnwrap()).toEqual({ projects: [], top: 25, out: '/d' });
  });

  it('refuses an unknown flag, a missing value and a count that is not one', () => {
    expect(parseProfileOptions(['--fast'], '/d')._unsafeUnwrapErr()).toMatch(/^Unknown option --fast/);
    expect(parseProfileOptions(['--top'], '/d')._unsafeUnwrapErr()).toBe('--top needs a value');
    expect(parseProfileOptions(['--top', '0'], '/d')._unsafeUnwrapErr()).toMatch(/whole number/);
    expect(parseProfileOptions(['--projects', '--top'], '/d')._unsafeUnwrapErr()).toBe('--projects needs a value');
  });
});
