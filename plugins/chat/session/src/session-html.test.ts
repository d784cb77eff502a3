import { describe, expect, it } from 'vitest';
import type { SessionEntry } from '@pi/agent';
import { escapeHtml, sessionHtml } from './session-html';

const EVIL = '<script>alert("x")</script>';

let counter = 0;
function entry(body: Record<string, unknown>): SessionEntry {
  counter += 1;
  return { id: `e${counter}`, parentId: null, timestamp: '2025-01-01T00:00:00.000Z', ...body } as SessionEntry;
}
const user = (text: string) =>
  entry({ kind: 'message', operationId: 'op', message: { role: 'user', content: [{ type: 'text', text }] } });
const shellRecord = (command: string, output: string, exitCode = 0) => ({
  type: 'shell',
  command,
  output,
  exitCode,
  signal: null,
  timedOut: false,
  aborted: false,
  truncated: false,
  totalBytes: output.length,
  timeoutSeconds: 600,
});

/** One of everything, each text holding markup. */
function everything(): SessionEntry[] {
  return [
    entry({ kind: 'operation_started', operationId: 'op' }),
    user(`question ${EVIL}`),
    entry({
      kind: 'message',
      operationId: 'op',
      message: {
        role: 'assistant',
        model: `m/${EVIL}`,
        stopReason: 'tool_calls',
        content: [
          { type: 'thinking', text: `pondering ${EVIL}` },
          { type: 'text', text: `answer ${EVIL}` },
          { type: 'tool_call', id: 'c1', name: `bash${EVIL}`, arguments: { command: `echo ${EVIL}` } },
        ],
      },
    }),
    entry({
      kind: 'message',
      operationId: 'op',
      message: {
        role: 'tool',
        toolCallId: 'c1',
        toolName: 'bash',
        content: [{ type: 'text', text: `result ${EVIL}` }],
        details: null,
        isError: true,
      },
    }),
    entry({ kind: 'operation_settled', operationId: 'op', outcome: 'failed', error: `broke ${EVIL}` }),
    entry({
      kind: 'message',
      operationId: null,
      message: { role: 'user', content: [{ type: 'text', text: 'what the model read' }] },
      origin: { namespace: '@pi/chat', data: shellRecord(`ls ${EVIL}`, `out ${EVIL}`, 2) },
    }),
    entry({ kind: 'custom', namespace: '@pi/chat', data: shellRecord('whoami', 'private') }),
    entry({ kind: 'custom', namespace: '@pi/other', data: { secret: 'not for the page' } }),
    entry({
      kind: 'compaction',
      firstKeptEntryId: null,
      summary: `summary ${EVIL}`,
      instructions: null,
      trigger: 'manual',
      model: 'm/x',
      tokensBefore: 900,
      tokensAfter: 100,
      operationId: null,
    }),
  ];
}

const page = (entries: SessionEntry[], sessionId = 's-1', cwd = '/work/project') =>
  sessionHtml({ sessionId, cwd, exportedAt: '2026-12-02T10:00:00.000Z', entries });

describe('the exported session page', () => {
  it('escapes every text of the session: no markup from it survives', () => {
    const html = page(everything(), `id${EVIL}`, `/dir${EVIL}`);
    expect(html).not.toContain('<script');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    // The eleven texts of the entries holding it, the directory, and the id (in the title and the heading).
    expect(html.split('&lt;script&gt;').length - 1).toBe(14);
  });

  it('needs nothing from elsewhere: inline style, no script, link, image, font or import', () => {
    const html = page(everything());
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<style>');
    for (const external of ['<script', '<link', '<img', 'src=', 'href=', 'url(', '@import', '@font-face'])
      expect(html).not.toContain(external);
  });

  it('shows prompts, answers, collapsed thinking, tool calls and results, shell commands and compactions in order', () => {
    const html = page(everything());
    const order = [
      'question',
      '<details><summary>Thinking</summary><div class="text">pondering',
      'answer',
      '<span class="tool">bash',
      '&quot;command&quot;: &quot;echo',
      'bash failed · 1 line',
      'The run failed: broke',
      'the model read its output',
      '$ ls',
      '[Exit code 2.]',
      'not sent to the model',
      '$ whoami',
      'Compacted by /compact: ~900 → ~100 tokens',
    ];
    const positions = order.map((text) => html.indexOf(text));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // The model's own copy of a ! command is not shown twice, and another plugin's record not at all.
    expect(html).not.toContain('what the model read');
    expect(html).not.toContain('not for the page');
  });

  it('opens short tool output and collapses long output', () => {
    const result = (lines: number) =>
      entry({
        kind: 'message',
        operationId: 'op',
        message: {
          role: 'tool',
          toolCallId: 'c',
          toolName: 'read',
          content: [{ type: 'text', text: Array.from({ length: lines }, (_, index) => `l${index}`).join('\n') }],
          details: null,
          isError: false,
        },
      });
    expect(page([result(3)])).toContain('<details open><summary>read result · 3 lines');
    expect(page([result(300)])).toContain('<details><summary>read result · 300 lines');
  });

  it('says so when the session has nothing in it yet', () => {
    expect(page([])).toContain('Nothing was said in this session yet.');
  });

  it('escapes the five characters markup and attributes need', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
