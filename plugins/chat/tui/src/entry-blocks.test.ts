import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '@pi/chat';
import type { TuiTheme } from '@pi/plugin-api';
import { visibleWidth } from '@pi/terminal';
import { entryBlock, streamingBlock, streamingLayout } from './entry-blocks';

const plain: TuiTheme = { fg: (_color, text) => text, bold: (text) => text };
const context = (expanded = false, renderer: Parameters<typeof entryBlock>[1]['renderer'] = () => undefined) => ({
  theme: plain,
  expanded,
  renderer,
});
const lines = (entry: TranscriptEntry, width = 40, expanded = false) =>
  entryBlock(entry, context(expanded))?.render(width) ?? null;

describe('transcript blocks', () => {
  it('a user message is marked and wrapped to the width, with wide characters counted right', () => {
    const rendered = lines({ kind: 'user', id: 'u', operationId: null, text: `你好 🐢 ${'word '.repeat(20)}` }, 30);
    expect(rendered?.[1]?.startsWith('› 你好 🐢')).toBe(true);
    expect(rendered?.every((line) => visibleWidth(line) <= 30)).toBe(true);
  });

  it('tool output is collapsed to a few lines with a hint, and shown whole when expanded', () => {
    const entry: TranscriptEntry = {
      kind: 'tool_result',
      id: 't',
      operationId: 'o',
      toolCallId: 'c',
      toolName: 'bash',
      text: Array.from({ length: 10 }, (_, index) => `line ${index}`).join('\n'),
      details: null,
      isError: false,
    };
    expect(lines(entry)).toEqual([
      '    line 0',
      '    line 1',
      '    line 2',
      '    line 3',
      '    … 6 more lines (ctrl+o)',
    ]);
    expect(lines(entry, 40, true)).toHaveLength(10);
  });

  it('a tool with a contributed renderer is rendered by it', () => {
    const entry: TranscriptEntry = {
      kind: 'tool_result',
      id: 't',
      operationId: 'o',
      toolCallId: 'c',
      toolName: 'question',
      text: 'User selected: 2. green',
      details: { answer: 'green' },
      isError: false,
    };
    const block = entryBlock(
      entry,
      context(false, () => ({ renderResult: (result) => ({ render: () => [`✓ ${JSON.stringify(result.details)}`] }) })),
    );
    expect(block?.render(40)).toEqual(['    ✓ {"answer":"green"}']);
  });

  it('completed runs leave no line; failed and interrupted runs say so', () => {
    const settled = (outcome: 'completed' | 'aborted' | 'failed', error: string | null = null): TranscriptEntry => ({
      kind: 'run_settled',
      id: outcome,
      operationId: 'o',
      outcome,
      error,
    });
    expect(lines(settled('completed'))).toBeNull();
    expect(lines(settled('aborted'))?.join('')).toContain('interrupted');
    expect(lines(settled('failed', 'model stream stalled'), 80)?.join('')).toContain(
      'the run failed: model stream stalled',
    );
  });

  it('the streaming block shows the text so far, or an ellipsis before the first delta', () => {
    expect(streamingBlock('', plain).render(20)).toEqual(['', '  …']);
    expect(streamingBlock('partial answer', plain).render(20)).toEqual(['', '  partial answer']);
  });

  it('the blocks of a growing answer sharing one layout read as the answer laid out whole, at every width', () => {
    const layout = streamingLayout();
    const answer = `Here is the plan:\n\n\`\`\`ts\nconst x = 1;\n\`\`\`\n- 你好 🐢 ${'word '.repeat(30)}\n\tdone.`;
    for (let end = 0; end <= answer.length; end += 3) {
      const body = answer.slice(0, end);
      const width = end < answer.length / 2 ? 30 : 17; // a resize halfway
      expect(streamingBlock(body, plain, layout).render(width)).toEqual(streamingBlock(body, plain).render(width));
    }
  });

  it('a compaction is a marker with the tokens saved, and its summary when expanded', () => {
    const entry: TranscriptEntry = {
      kind: 'compaction',
      id: 'c',
      operationId: null,
      trigger: 'manual',
      summary: 'The user fixed the parser.',
      instructions: 'keep paths',
      tokensBefore: 12_345,
      tokensAfter: 678,
    };
    expect(lines(entry, 80)).toEqual([
      '',
      '── compacted by /compact: ~12,345 → ~678 tokens ──',
      '  the model now reads a summary of the above (ctrl+o)',
    ]);
    expect(lines(entry, 80, true)).toEqual([
      '',
      '── compacted by /compact: ~12,345 → ~678 tokens ──',
      '    The user fixed the parser.',
      '    ',
      '    (instructions: keep paths)',
    ]);
  });
});
