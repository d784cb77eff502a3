import type { AssistantMessage, SessionEntry, ToolResultMessage } from '@pi/agent';
import { CHAT_PLUGIN_ID } from '@pi/chat';
import { SESSION_HTML_STYLE } from './session-html-style';
import { shellNotice, shellRecordOf, type ShellRecord } from './shell-record';

/** What the exported page says about the session besides its entries. */
export interface SessionPage {
  readonly sessionId: string;
  readonly cwd: string;
  /** ISO-8601. */
  readonly exportedAt: string;
  /** The current branch, oldest first. */
  readonly entries: readonly SessionEntry[];
}

/** Tool output longer than this many lines starts collapsed. */
const OPEN_RESULT_LINES = 20;

/** Every character that could start markup or end an attribute, as an entity. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * The session as one HTML page that needs nothing else: inline CSS, no script, no external font, image or link, and
 * every piece of text from the session escaped. Prompts, answers (their thinking collapsed), tool calls and results,
 * `!`/`!!` commands, compactions and runs that did not complete, in branch order.
 */
export function sessionHtml(page: SessionPage): string {
  const title = `pi session ${page.sessionId}`;
  const sections = page.entries.flatMap((entry) => {
    const section = entrySection(entry);
    return section === null ? [] : [section];
  });
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${SESSION_HTML_STYLE}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="meta">${escapeHtml(page.cwd)} · exported ${escapeHtml(page.exportedAt)}</p>`,
    '</header>',
    '<main>',
    ...(sections.length === 0 ? ['<p class="meta">Nothing was said in this session yet.</p>'] : sections),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function entrySection(entry: SessionEntry): string | null {
  switch (entry.kind) {
    case 'message': {
      const shell = entry.origin?.namespace === CHAT_PLUGIN_ID ? shellRecordOf(entry.origin.data) : null;
      if (shell !== null) return shellSection(shell, true);
      const { message } = entry;
      if (message.role === 'user')
        return section('user', 'You', text(message.content.map((part) => part.text).join('')));
      return message.role === 'assistant' ? assistantSection(message) : toolResultSection(message);
    }
    case 'custom': {
      const shell = entry.namespace === CHAT_PLUGIN_ID ? shellRecordOf(entry.data) : null;
      return shell === null ? null : shellSection(shell, false);
    }
    case 'compaction': {
      const how = entry.trigger === 'auto' ? 'automatically' : 'by /compact';
      const summary = `Compacted ${how}: ~${entry.tokensBefore} → ~${entry.tokensAfter} tokens; the model read this summary of the above`;
      return `<section class="compaction">${details(summary, text(entry.summary), false)}</section>`;
    }
    case 'operation_settled':
      if (entry.outcome === 'completed') return null;
      return entry.outcome === 'aborted'
        ? '<section class="notice">Interrupted</section>'
        : `<section class="notice error">The run failed: ${escapeHtml(entry.error ?? 'unknown error')}</section>`;
    case 'operation_started':
    case 'cancel_requested':
    case 'queue_added':
    case 'queue_withdrawn':
    case 'leaf_moved':
      return null;
  }
}

function assistantSection(message: AssistantMessage): string {
  const parts = message.content.map((part) => {
    switch (part.type) {
      case 'thinking':
        return details('Thinking', text(part.redacted === true ? '(encrypted by the provider)' : part.text), false);
      case 'text':
        return text(part.text);
      case 'tool_call':
        return `<div class="tool-call"><span class="tool">${escapeHtml(part.name)}</span>${pre(JSON.stringify(part.arguments, null, 2))}</div>`;
    }
  });
  if (message.stopReason === 'error') parts.push('<p class="error">The model stopped with an error.</p>');
  return section('assistant', message.model, parts.join(''));
}

function toolResultSection(message: ToolResultMessage): string {
  const output = message.content.map((part) => part.text).join('');
  const lines = output.split('\n').length;
  const summary = `${message.toolName} ${message.isError ? 'failed' : 'result'} · ${lines} line${lines === 1 ? '' : 's'}`;
  const kind = message.isError ? 'tool-result error' : 'tool-result';
  return `<section class="${kind}">${details(summary, pre(output), lines <= OPEN_RESULT_LINES)}</section>`;
}

function shellSection(record: ShellRecord, includeInContext: boolean): string {
  const notice = shellNotice(record);
  const sent = includeInContext ? 'the model read its output' : 'not sent to the model';
  return [
    `<section class="shell">`,
    `<div class="who">Shell command · ${sent}</div>`,
    pre(`$ ${record.command}`, 'command'),
    record.output === '' ? '' : pre(record.output),
    notice === null ? '' : `<p class="error">${escapeHtml(notice)}</p>`,
    '</section>',
  ].join('');
}

function section(kind: string, who: string, body: string): string {
  return `<section class="${kind}"><div class="who">${escapeHtml(who)}</div>${body}</section>`;
}

function details(summary: string, body: string, open: boolean): string {
  return `<details${open ? ' open' : ''}><summary>${escapeHtml(summary)}</summary>${body}</details>`;
}

function text(body: string): string {
  return `<div class="text">${escapeHtml(body)}</div>`;
}

function pre(body: string, kind = 'output'): string {
  return `<pre class="${kind}">${escapeHtml(body)}</pre>`;
}
