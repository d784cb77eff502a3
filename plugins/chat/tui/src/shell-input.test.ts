import { describe, expect, it } from 'vitest';
import { parseShellInput } from './shell-input';

describe('parseShellInput', () => {
  it('! runs a command whose output the model reads; !! one whose output it never reads', () => {
    expect(parseShellInput('!git status')).toEqual({ kind: 'command', command: 'git status', includeInContext: true });
    expect(parseShellInput('!! ls -la ')).toEqual({ kind: 'command', command: 'ls -la', includeInContext: false });
    expect(parseShellInput('!for f in *; do\n  echo "$f"\ndone')).toEqual({
      kind: 'command',
      command: 'for f in *; do\n  echo "$f"\ndone',
      includeInContext: true,
    });
  });

  it('a prompt that merely contains a ! (or starts with a space) is a prompt', () => {
    expect(parseShellInput('hi!')).toBeNull();
    expect(parseShellInput('what does !x do?')).toBeNull();
    expect(parseShellInput(' !ls')).toBeNull();
    expect(parseShellInput('')).toBeNull();
  });

  it('! or !! with nothing after it is an empty command, not a prompt', () => {
    expect(parseShellInput('!')).toEqual({ kind: 'empty', includeInContext: true });
    expect(parseShellInput('!!  ')).toEqual({ kind: 'empty', includeInContext: false });
  });

  it('!!! is a !! command that starts with !', () => {
    expect(parseShellInput('!!!x')).toEqual({ kind: 'command', command: '!x', includeInContext: false });
  });
});
