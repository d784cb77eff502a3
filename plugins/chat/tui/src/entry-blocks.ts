import type { CompactionTranscriptEntry, TranscriptEntry } from '@pi/chat';
import type { ToolRenderer, TuiComponent, TuiTheme } from '@pi/plugin-api';
import { GrowingTextWrap, wrapText } from '@pi/terminal';
import { shellEntryBlock } from './shell-blocks';

/** How many lines of a tool's output show while tool output is collapsed (Ctrl+O shows all). */
const COLLAPSED_TOOL_LINES = 4;

const text = (lines: (width: number) => string[]): TuiComponent => ({ render: lines });

/** Wraps `body` under a first-line prefix, indenting the continuation lines to match. */
function prefixed(prefix: string, body: string, width: number): string[] {
  const indent = ' '.repeat(2);
  const lines = wrapText(body, Math.max(1, width - 2));
  return lines.map((line, index) => (index === 0 ? prefix : indent) + line);
}

export interface BlockContext {
  readonly theme: TuiTheme;
  readonly expanded: boolean;
  readonly renderer: (toolName: string) => ToolRenderer | undefined;
}

/** The transcript block of one durable entry, or null for entries a reader need not see. */
export function entryBlock(entry: TranscriptEntry, context: BlockContext): TuiComponent | null {
  const { theme } = context;
  switch (entry.kind) {
    case 'user':
      return text((width) => ['', ...prefixed(theme.fg('accent', '› '), entry.text, width)]);
    case 'assistant':
      return text((width) => {
        const lines = entry.text === '' ? [] : ['', ...prefixed('  ', entry.text, width)];
        for (const call of entry.toolCalls) {
          const custom = context.renderer(call.name)?.renderCall?.(call.arguments, theme);
          lines.push(
            ...(custom?.render(width - 2).map((line) => `  ${line}`) ?? [
              `  ${theme.fg('toolTitle', call.name)} ${theme.fg('muted', JSON.stringify(call.arguments))}`,
            ]),
          );
        }
        if (entry.stopReason === 'error') lines.push(theme.fg('error', '  the model stopped with an error'));
        return lines;
      });
    case 'tool_result':
      return text((width) => {
        const custom = context
          .renderer(entry.toolName)
          ?.renderResult?.({ text: entry.text, details: entry.details, isError: entry.isError }, theme, {
            expanded: context.expanded,
          });
        if (custom !== undefined) return custom.render(width - 4).map((line) => `    ${line}`);
        const body = wrapText(entry.text, Math.max(1, width - 4));
        const shown =
          context.expanded || body.length <= COLLAPSED_TOOL_LINES ? body : body.slice(0, COLLAPSED_TOOL_LINES);
        const colour = entry.isError ? 'error' : 'muted';
        const more =
          shown.length < body.length
            ? [theme.fg('dim', `    … ${body.length - shown.length} more lines (ctrl+o)`)]
            : [];
        return [...shown.map((line) => `    ${theme.fg(colour, line)}`), ...more];
      });
    case 'run_settled':
      if (entry.outcome === 'completed') return null;
      return text((width) =>
        prefixed(
          '',
          theme.fg(
            entry.outcome === 'aborted' ? 'warning' : 'error',
            entry.outcome === 'aborted' ? '  ⏹ interrupted' : `  ✗ the run failed: ${entry.error ?? 'unknown error'}`,
          ),
          width,
        ),
      );
    case 'compaction':
      return compactionBlock(entry, context);
    case 'shell':
      return shellEntryBlock(entry, context);
    case 'abort_requested':
    case 'run_started':
      return null;
  }
}

/**
 * Where the model's view of the history became a summary: a marker line with the estimated tokens before → after;
 * the summary itself while tool output is expanded (Ctrl+O). The messages above it stay in the transcript.
 */
function compactionBlock(entry: CompactionTranscriptEntry, context: BlockContext): TuiComponent {
  const { theme } = context;
  const how = entry.trigger === 'auto' ? 'automatically' : 'by /compact';
  const marker = `── compacted ${how}: ~${tokens(entry.tokensBefore)} → ~${tokens(entry.tokensAfter)} tokens ──`;
  return text((width) => {
    const lines = ['', ...wrapText(theme.fg('muted', marker), width)];
    if (!context.expanded) return [...lines, theme.fg('dim', '  the model now reads a summary of the above (ctrl+o)')];
    const body =
      entry.instructions === null ? entry.summary : `${entry.summary}\n\n(instructions: ${entry.instructions})`;
    return [...lines, ...wrapText(body, Math.max(1, width - 4)).map((line) => `    ${theme.fg('dim', line)}`)];
  });
}

function tokens(count: number): string {
  return count.toLocaleString('en-US');
}

/**
 * The layout of the answer streaming now, kept from one of its blocks to the next: each delta makes a new block,
 * and without it every frame would wrap the whole answer again (issue 21). Holds nothing of the theme.
 */
export function streamingLayout(): GrowingTextWrap {
  return new GrowingTextWrap((row) => `  ${row}`);
}

/** The block of the text a model is streaming right now; `layout` is the one its previous blocks used. */
export function streamingBlock(body: string, theme: TuiTheme, layout = streamingLayout()): TuiComponent {
  return text((width) => {
    if (body === '') return ['', ...prefixed('  ', theme.fg('dim', '…'), width)];
    const lines = layout.wrap(body, Math.max(1, width - 2));
    lines.unshift('');
    return lines;
  });
}
