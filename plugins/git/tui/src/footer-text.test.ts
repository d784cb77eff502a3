import { describe, expect, it } from 'vitest';
import type { GitStatus } from '@pi/git';
import type { TuiTheme } from '@pi/plugin-api';
import { visibleWidth } from '@pi/terminal';
import { gitFooterLine } from './footer-text';
import { CLEAN_MAIN } from './testing/stand-in-git';

/** A theme that writes colours as tags, so a test sees which text got which colour. */
const tagged: TuiTheme = { fg: (color, text) => `<${color}>${text}</>`, bold: (text) => text };
const plain: TuiTheme = { fg: (_color, text) => text, bold: (text) => text };
const line = (status: Partial<GitStatus>, theme = plain, width = 80) =>
  gitFooterLine({ ...CLEAN_MAIN, ...status }, theme, width);
const dirty = { clean: false, changes: { staged: 0, unstaged: 1, untracked: 0, conflicted: 0 } };

describe('the git footer line', () => {
  it('shows the branch, a star when dirty, and the commits ahead and behind', () => {
    expect(line({})).toBe('⎇ main');
    expect(line({ ...dirty, ahead: 1 })).toBe('⎇ main*  ↑1');
    expect(line({ ahead: 2, behind: 3 })).toBe('⎇ main  ↑2 ↓3');
  });

  it('uses the theme’s colours for the branch, the dirty mark and the divergence', () => {
    expect(line({ ...dirty, behind: 1 }, tagged)).toBe('<accent>⎇ main</><warning>*</>  <muted>↓1</>');
  });

  it('shows a detached HEAD by its commit, and conflicts and git’s complaint when there are any', () => {
    expect(line({ branch: null, detached: true })).toBe('⎇ a1b2c3d (detached)');
    expect(line({ clean: false, changes: { staged: 0, unstaged: 0, untracked: 0, conflicted: 2 } })).toBe(
      '⎇ main*  2 conflicted',
    );
    expect(line({ error: 'fatal: index file corrupt' })).toBe('⎇ main  git: fatal: index file corrupt');
  });

  it('shows nothing before the first check or outside a repository, and says when git is missing', () => {
    expect(line({ checked: false })).toBeUndefined();
    expect(line({ inRepository: false, branch: null, commit: null })).toBeUndefined();
    expect(line({ inRepository: false, gitAvailable: false })).toBe('git not found');
  });

  it('never writes control characters from the session, and fits the width', () => {
    expect(line({ branch: 'evil\u001b[2Jname' })).toBe('⎇ evil [2Jname');
    const narrow = line({ branch: 'feature/a-very-long-branch-name', ...dirty, ahead: 12 }, plain, 12);
    expect(visibleWidth(narrow ?? '')).toBeLessThanOrEqual(12);
  });
});
