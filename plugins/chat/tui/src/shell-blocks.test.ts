import { describe, expect, it } from 'vitest';
import type { ShellTranscriptEntry } from '@pi/chat';
import type { TuiTheme } from '@pi/plugin-api';
import { entryBlock } from './entry-blocks';
import { shellLiveBlock } from './shell-blocks';

const plain: TuiTheme = { fg: (_color, text) => text, bold: (text) => text };
const shell = (fields: Partial<ShellTranscriptEntry> = {}): ShellTranscriptEntry => ({
  kind: 'shell',
  id: 's',
  command: 'ls',
  includeInContext: true,
  output: 'a.txt',
  exitCode: 0,
  signal: null,
  timedOut: false,
  aborted: false,
  truncated: false,
  ...fields,
});
const lines = (entry: ShellTranscriptEntry, expanded = false) =>
  entryBlock(entry, { theme: plain, expanded, renderer: () => undefined })?.render(60);

describe('shell blocks', () => {
  it('a ! command shows the command and its output; a clean exit needs no more', () => {
    expect(lines(shell())).toEqual(['', '  $ ls', '    a.txt']);
  });

  it('a !! command says its output was not sent to the model', () => {
    expect(lines(shell({ includeInContext: false, output: '' }))).toEqual(['', '  $ ls  (not sent to the model)']);
  });

  it('says how a command ended when it did not exit 0, and when its output was cut', () => {
    expect(lines(shell({ exitCode: 2 }))?.at(-1)).toBe('    ✗ exit code 2');
    expect(lines(shell({ exitCode: null, signal: 'SIGTERM', timedOut: true }))?.at(-1)).toBe(
      '    ⏱ killed at its timeout',
    );
    expect(lines(shell({ exitCode: null, signal: 'SIGTERM', aborted: true }))?.at(-1)).toBe('    ⏹ stopped');
    expect(lines(shell({ exitCode: null, signal: 'SIGKILL' }))?.at(-1)).toBe('    ✗ killed by SIGKILL');
    expect(lines(shell({ truncated: true }))?.at(-1)).toBe('    (only the end of its output was kept)');
  });

  it('shows the last lines of a long output, and all of it while tool output is expanded', () => {
    const entry = shell({ output: Array.from({ length: 10 }, (_, index) => `line ${index}`).join('\n') });
    expect(lines(entry)).toEqual([
      '',
      '  $ ls',
      '    … 4 earlier lines (ctrl+o)',
      ...[4, 5, 6, 7, 8, 9].map((index) => `    line ${index}`),
    ]);
    expect(lines(entry, true)).toHaveLength(12);
  });

  it('the running command shows its latest output and how to stop it', () => {
    const progress = { command: 'make', includeInContext: false, output: 'one\ntwo', startedAt: '' };
    expect(shellLiveBlock(progress, plain, 'esc').render(60)).toEqual([
      '',
      '  $ make  (not sent to the model)',
      '    one',
      '    two',
      '    running… · esc to stop',
    ]);
  });
});
