import { describe, expect, it } from 'vitest';
import { displayPath } from './display-path';

describe('a path shown to people', () => {
  const where = { cwd: '/home/u/repo', homeDir: '/home/u' };

  it('is relative inside the working directory, ~/ under home, and absolute elsewhere', () => {
    expect(displayPath('/home/u/repo/AGENTS.md', where)).toBe('AGENTS.md');
    expect(displayPath('/home/u/AGENTS.md', where)).toBe('~/AGENTS.md');
    expect(displayPath('/srv/AGENTS.md', where)).toBe('/srv/AGENTS.md');
  });

  it('is absolute for the roots themselves and for a sibling whose name only starts like one', () => {
    expect(displayPath('/home/u/repo', where)).toBe('~/repo');
    expect(displayPath('/home/u', where)).toBe('/home/u');
    expect(displayPath('/home/u2/notes.md', where)).toBe('/home/u2/notes.md');
  });
});
