import { describe, expect, it } from 'vitest';
import type { JsonValue, ToolRenderer, TuiTheme } from '@pi/plugin-api';
import type { BashDetails, FileChangeDetails, ListingDetails, ReadDetails } from '@pi/tools-core';
import { bashRenderer } from './bash-renderer';
import { diffLines, fileChangeRenderer } from './diff-renderer';
import { listingRenderer } from './listing-renderer';
import { readRenderer } from './read-renderer';

/** A theme that shows its colours as tags, so a test can read what was styled how. */
const tags: TuiTheme = { fg: (color, text) => `<${color}>${text}</${color}>`, bold: (text) => `<b>${text}</b>` };

function result(
  renderer: ToolRenderer,
  text: string,
  details: JsonValue,
  options: { isError?: boolean; expanded?: boolean } = {},
) {
  return renderer
    .renderResult?.({ text, details, isError: options.isError ?? false }, tags, { expanded: options.expanded ?? false })
    .render(200);
}

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`);

describe('the read renderer', () => {
  const details: ReadDetails = {
    path: 'a.txt',
    startLine: 1,
    endLine: 12,
    totalLines: 40,
    truncated: true,
    notice: '[more]',
  };
  const text = `${numbered(12).join('\n')}\n\n[more]`;

  it('shows the path and range of the call', () => {
    expect(readRenderer.renderCall?.({ path: 'src/a.ts', offset: 5, limit: 10 }, tags).render(200)).toEqual([
      '<toolTitle><b>read</b></toolTitle> <accent>src/a.ts</accent> <muted>lines 5-14</muted>',
    ]);
  });

  it('collapsed, shows the first lines of the file and how many more there are', () => {
    expect(result(readRenderer, text, details)).toEqual([
      '<success>✓</success> <muted>lines 1-12 of 40</muted>',
      ...numbered(10),
      '<dim>… 2 more lines (ctrl+o)</dim>',
    ]);
  });

  it('expanded, shows every line and the notice', () => {
    expect(result(readRenderer, text, details, { expanded: true })).toEqual([
      '<success>✓</success> <muted>lines 1-12 of 40</muted>',
      ...numbered(12),
      '<dim>[more]</dim>',
    ]);
  });

  it('shows a failure in the error colour', () => {
    expect(
      result(
        readRenderer,
        'a.bin is a binary file (3 bytes); read shows text files only.',
        { failure: 'binary_file', path: 'a.bin' },
        { isError: true },
      ),
    ).toEqual(['<error>✗ a.bin is a binary file (3 bytes); read shows text files only.</error>']);
  });

  it('shows file content with control characters as spaces, so it cannot restyle the terminal', () => {
    const lines = result(readRenderer, 'a\x1b[2Jb\tc', {
      ...details,
      endLine: 1,
      totalLines: 1,
      truncated: false,
      notice: null,
    });
    expect(lines?.[1]).toBe('a [2Jb    c');
  });
});

describe('the bash renderer', () => {
  const done: BashDetails = {
    command: 'seq 8',
    exitCode: 0,
    signal: null,
    timedOut: false,
    aborted: false,
    truncated: false,
    notice: null,
  };

  it('shows the command of the call', () => {
    expect(bashRenderer.renderCall?.({ command: 'npm test' }, tags).render(80)).toEqual([
      '<toolTitle><b>bash</b></toolTitle> <accent>$ npm test</accent>',
    ]);
  });

  it('collapsed, shows its state and the last lines of output', () => {
    expect(result(bashRenderer, numbered(8).join('\n'), done)).toEqual([
      '<success>✓ exit 0</success>',
      '<dim>… 3 earlier lines (ctrl+o)</dim>',
      ...numbered(8).slice(3),
    ]);
  });

  it('expanded, shows all of the output', () => {
    expect(result(bashRenderer, numbered(8).join('\n'), done, { expanded: true })).toEqual([
      '<success>✓ exit 0</success>',
      ...numbered(8),
    ]);
  });

  it('shows a failed, timed-out or aborted command as such, without repeating the notice', () => {
    const failed = { ...done, exitCode: 2, notice: '[Exit code 2.]' };
    expect(result(bashRenderer, 'oops\n\n[Exit code 2.]', failed, { isError: true })).toEqual([
      '<error>✗ exit 2</error>',
      'oops',
    ]);
    const timedOut = { ...done, exitCode: null, signal: 'SIGTERM', timedOut: true, notice: '[Timed out.]' };
    expect(result(bashRenderer, '(no output)\n\n[Timed out.]', timedOut, { isError: true })).toEqual([
      '<error>✗ timed out, killed</error>',
    ]);
    const aborted = { ...done, exitCode: null, aborted: true, notice: '[Aborted.]' };
    expect(result(bashRenderer, 'x\n\n[Aborted.]', aborted, { isError: true })?.[0]).toBe(
      '<warning>⏹ aborted, killed</warning>',
    );
  });

  it('says when output was cut', () => {
    const cut = { ...done, truncated: true, notice: '[Output cut: showing the last 2 lines of 1.0 MiB.]' };
    expect(result(bashRenderer, 'a\nb\n\n[Output cut: showing the last 2 lines of 1.0 MiB.]', cut)).toEqual([
      '<success>✓ exit 0</success>',
      'a',
      'b',
      '<dim>[Output cut: showing the last 2 lines of 1.0 MiB.]</dim>',
    ]);
  });
});

describe('the edit and write renderers', () => {
  const edit: FileChangeDetails = {
    path: 'greet.ts',
    created: false,
    replacements: 1,
    diff: '--- greet.ts\n+++ greet.ts\n@@ -1,3 +1,3 @@\n a\n-hello\n+goodbye\n c\n',
    added: 1,
    removed: 1,
    diffTruncated: false,
  };

  it('colours added lines in the success colour and removed lines in the error colour', () => {
    expect(result(fileChangeRenderer('edit'), 'Replaced 1 occurrence in greet.ts (+1 -1 lines).', edit)).toEqual([
      '<success>✓</success> <muted>edited greet.ts</muted> <success>+1</success> <error>-1</error>',
      '<muted>@@ -1,3 +1,3 @@</muted>',
      ' a',
      '<error>-hello</error>',
      '<success>+goodbye</success>',
      ' c',
    ]);
  });

  it('collapses a long diff to its first lines', () => {
    const diff = `--- a\n+++ a\n@@ -0,0 +1,40 @@\n${numbered(40)
      .map((line) => `+${line}`)
      .join('\n')}\n`;
    const lines = result(fileChangeRenderer('write'), 'Created a.', {
      ...edit,
      created: true,
      replacements: 0,
      diff,
      added: 40,
      removed: 0,
    });
    expect(lines?.[0]).toBe(
      '<success>✓</success> <muted>created greet.ts</muted> <success>+40</success> <error>-0</error>',
    );
    expect(lines?.length).toBe(1 + 30 + 1);
    expect(lines?.at(-1)).toBe('<dim>… 11 more lines (ctrl+o)</dim>');
    expect(result(fileChangeRenderer('write'), 'Created a.', { ...edit, diff }, { expanded: true })?.length).toBe(
      1 + 41,
    );
  });

  it('shows an ambiguous edit as the failure it is', () => {
    expect(
      result(
        fileChangeRenderer('edit'),
        'The text to replace occurs 2 times in a.ts (lines 1, 3); nothing was changed.',
        { failure: 'ambiguous_match', path: 'a.ts' },
        { isError: true },
      ),
    ).toEqual(['<error>✗ The text to replace occurs 2 times in a.ts (lines 1, 3); nothing was changed.</error>']);
  });

  it('diffLines leaves out the file headers and shows a missing final newline dimly', () => {
    expect(diffLines('--- a\n+++ a\n@@ -1 +1 @@\n-x\n+y\n\\ No newline at end of file\n', tags)).toEqual([
      '<muted>@@ -1 +1 @@</muted>',
      '<error>-x</error>',
      '<success>+y</success>',
      '<dim>\\ No newline at end of file</dim>',
    ]);
  });
});

describe('the listing renderers', () => {
  const found: ListingDetails = { path: '.', pattern: '*.ts', count: 12, truncated: false, notice: null };

  it('show what was searched', () => {
    expect(listingRenderer('grep').renderCall?.({ pattern: 'TODO', path: 'src' }, tags).render(80)).toEqual([
      '<toolTitle><b>grep</b></toolTitle> <accent>/TODO/ in src</accent>',
    ]);
    expect(listingRenderer('ls').renderCall?.({}, tags).render(80)).toEqual([
      '<toolTitle><b>ls</b></toolTitle> <accent>.</accent>',
    ]);
  });

  it('show how many results and the first ones, all of them expanded', () => {
    const text = numbered(12).join('\n');
    expect(result(listingRenderer('find'), text, found)).toEqual([
      '<success>✓</success> <muted>12 paths</muted>',
      ...numbered(10),
      '<dim>… 2 more lines (ctrl+o)</dim>',
    ]);
    expect(result(listingRenderer('find'), text, found, { expanded: true })?.length).toBe(13);
  });
});
