import type { RowReport, Verdict } from './row-report';

/** Column widths of the wrapped columns; the row name and the result fit their own. */
const WHAT_WIDTH = 46;
const LIST_WIDTH = 40;

/**
 * The soak's table: one block per row (its name, PASS/FAIL/SKIP, what was done, the counts, the figures), cells
 * wrapped to fixed widths so a terminal shows it whole; then the reasons of every row that did not pass, and a
 * summary line.
 */
export function formatSoakTable(reports: readonly RowReport[]): string[] {
  const header = ['row', 'result', 'what was done', 'counts', 'figures'];
  const blocks = reports.map((report) => [
    [report.row],
    [report.verdict],
    wrap(report.what, WHAT_WIDTH),
    report.counts.flatMap((count) => wrap(count, LIST_WIDTH)),
    report.figures.flatMap((figure) => wrap(figure, LIST_WIDTH)),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...blocks.flatMap((block) => (block[column] ?? []).map((line) => [...line].length))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell + ' '.repeat((widths[column] ?? 0) - [...cell].length))
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const lines = [line(header), rule];
  for (const block of blocks) {
    const height = Math.max(...block.map((cells) => cells.length));
    for (let index = 0; index < height; index++) lines.push(line(block.map((cells) => cells[index] ?? '')));
    lines.push('');
  }
  const notPassed = reports.filter((report) => report.verdict !== 'PASS');
  for (const report of notPassed) {
    for (const reason of report.reasons) lines.push(`${report.row} ${report.verdict}: ${reason}`);
  }
  if (notPassed.length > 0) lines.push('');
  lines.push(summary(reports));
  return lines;
}

function summary(reports: readonly RowReport[]): string {
  const count = (verdict: Verdict) => reports.filter((report) => report.verdict === verdict).length;
  return `${reports.length} row${reports.length === 1 ? '' : 's'}: ${count('PASS')} PASS, ${count('FAIL')} FAIL, ${count('SKIP')} SKIP`;
}

/** Breaks text at spaces so no line passes `width`; a word longer than that is cut. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    let rest = word;
    while ([...rest].length > width) {
      if (current !== '') lines.push(current);
      lines.push([...rest].slice(0, width).join(''));
      rest = [...rest].slice(width).join('');
      current = '';
    }
    if (current === '') current = rest;
    else if ([...current].length + 1 + [...rest].length <= width) current = `${current} ${rest}`;
    else {
      lines.push(current);
      current = rest;
    }
  }
  if (current !== '') lines.push(current);
  return lines.length === 0 ? [''] : lines;
}
