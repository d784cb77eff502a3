import type { TuiComponent, TuiTheme } from '@pi/plugin-api';
import { wrapText } from '@pi/terminal';

/** Which lines of a long output stay visible while tool output is collapsed. */
export interface Collapse {
  /** `head` keeps the first lines (a file), `tail` the last (a command: errors and summaries come last). */
  readonly keep: 'head' | 'tail';
  readonly lines: number;
}

export interface ToolBlock {
  /** The status line (styled): `✓ …`, `✗ …`. */
  readonly header: string;
  /** The output, one styled line each (already safe to show). */
  readonly body: readonly string[];
  readonly collapse: Collapse;
  readonly expanded: boolean;
  /** A dim line after the body (the result's notice), shown when expanded or when nothing was hidden. */
  readonly footer?: string | null;
}

/**
 * A tool result's block: its status line, then its output, collapsed to the first or last few lines with a hint
 * of how many are hidden (Ctrl+O shows all); each line word-wrapped to the width it is drawn at.
 */
export function toolBlock(block: ToolBlock, theme: TuiTheme): TuiComponent {
  const { body, collapse, expanded } = block;
  const hidden = expanded ? 0 : Math.max(0, body.length - collapse.lines);
  const hint = theme.fg('dim', `… ${hidden} ${collapse.keep === 'tail' ? 'earlier' : 'more'} lines (ctrl+o)`);
  let lines: string[];
  if (hidden === 0) lines = [...body];
  else if (collapse.keep === 'head') lines = [...body.slice(0, collapse.lines), hint];
  else lines = [hint, ...body.slice(body.length - collapse.lines)];
  if (block.footer != null && (expanded || hidden === 0)) lines.push(theme.fg('dim', block.footer));
  const all = [block.header, ...lines];
  return { render: (width) => all.flatMap((line) => wrapText(line, width)) };
}

/** A call's one-line title: the tool's name, then what it works on. */
export function callTitle(theme: TuiTheme, name: string, subject: string, extra = ''): TuiComponent {
  const line = `${theme.fg('toolTitle', theme.bold(name))} ${theme.fg('accent', subject)}${extra === '' ? '' : ` ${theme.fg('muted', extra)}`}`;
  return { render: (width) => wrapText(line, width) };
}

/** The block of a failed call: its text (why nothing was done) in the error colour, after a cross. */
export function failedBlock(lines: readonly string[], theme: TuiTheme): TuiComponent {
  const all = lines.map((line, index) => theme.fg('error', index === 0 ? `✗ ${line}` : line));
  return { render: (width) => all.flatMap((line) => wrapText(line, width)) };
}
