import { describe, expect, it } from 'vitest';
import { editorShows, editorText, showsEditor } from './agent-run';

const rule = '─'.repeat(100);

describe('editorText', () => {
  it('is the text between the last two rules across the screen', () => {
    const screen = ['welcome', rule, 'an old box', rule, 'transcript', rule, '› KQZ   ', rule, 'footer'].join('\n');
    expect(editorText(screen)).toBe('› KQZ');
    expect(editorShows(screen, 'KQZ')).toBe(true);
    expect(editorShows(screen, 'KQ')).toBe(false);
  });

  it('is empty for an empty editor, and undefined before an editor is painted', () => {
    expect(editorText([rule, '   ', rule].join('\n'))).toBe('');
    expect(showsEditor('Starting the coordinator\n' + '─'.repeat(20))).toBe(false);
    expect(editorShows('KQZ', 'KQZ')).toBe(false);
  });

  it('does not take a rule with text in it, or a short one, for the editor', () => {
    expect(editorText([`── title ${rule}`, 'x', '─'.repeat(30), 'y', rule].join('\n'))).toBeUndefined();
  });
});
