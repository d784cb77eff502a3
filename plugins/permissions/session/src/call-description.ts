import { MAX_DETAIL_LENGTH, MAX_SUMMARY_LENGTH } from '@pi/permissions';

/** What the user is shown of one call: a summary they can judge, and a few facts. */
export interface CallDescription {
  readonly summary: string;
  readonly details: string[];
  /** For an edit: the replaced lines and their replacements, as `-`/`+` lines. */
  readonly diff?: string;
}

type Args = Readonly<Record<string, unknown>>;

/**
 * Describes a guarded call from its (already validated) arguments. The argument names are the coding tools'
 * (`command`; `path` + `content`; `path` + `oldText`/`newText`), with the common alternatives read as well; a
 * shape it does not know is shown as its JSON, so the user always sees what is about to run.
 */
export function describeCall(tool: string, args: unknown): CallDescription {
  const record = asRecord(args);
  const described = record === null ? null : describeKnown(tool, record);
  return described ?? { summary: bounded(safeJson(args), MAX_SUMMARY_LENGTH), details: [] };
}

function describeKnown(tool: string, args: Args): CallDescription | null {
  const path = firstString(args, ['path', 'file_path', 'filePath']);
  switch (tool) {
    case 'bash': {
      const command = firstString(args, ['command', 'cmd']);
      if (command === null) return null;
      const timeout = typeof args['timeout'] === 'number' ? [`times out after ${args['timeout']} s`] : [];
      return { summary: bounded(command, MAX_SUMMARY_LENGTH), details: timeout };
    }
    case 'write': {
      const content = firstString(args, ['content', 'text']);
      if (path === null || content === null) return null;
      return { summary: bounded(path, MAX_SUMMARY_LENGTH), details: [`writes ${size(content)}`] };
    }
    case 'edit': {
      if (path === null) return null;
      const diff = editDiff(args);
      return {
        summary: bounded(path, MAX_SUMMARY_LENGTH),
        details: editDetails(args),
        ...(diff === '' ? {} : { diff: bounded(diff, MAX_SUMMARY_LENGTH) }),
      };
    }
    default:
      return null;
  }
}

/** The replacements of an edit call: `edits: [...]`, or the call itself. */
function editsOf(args: Args): Args[] {
  const listed: unknown = args['edits'];
  return Array.isArray(listed)
    ? listed.flatMap((edit: unknown) => {
        const record = asRecord(edit);
        return record === null ? [] : [record];
      })
    : [args];
}

function replacementOf(edit: Args): { before: string; after: string } | null {
  const before = firstString(edit, ['oldText', 'old_string', 'oldString']);
  const after = firstString(edit, ['newText', 'new_string', 'newString']);
  return before === null || after === null ? null : { before, after };
}

/** Each replacement's old lines as `-` lines and new ones as `+` lines, one replacement after another. */
function editDiff(args: Args): string {
  const lines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
  return editsOf(args)
    .flatMap((edit) => {
      const replacement = replacementOf(edit);
      if (replacement === null) return [];
      return [
        ...lines(replacement.before).map((line) => `-${line}`),
        ...lines(replacement.after).map((line) => `+${line}`),
      ];
    })
    .join('\n');
}

/** One line per replacement: `replaces 3 lines with 5 lines (+2)`; several edits are counted first. */
function editDetails(args: Args): string[] {
  const edits = editsOf(args);
  const lines = edits.flatMap((edit) => {
    const replacement = replacementOf(edit);
    if (replacement === null) return [];
    const { before, after } = replacement;
    const removed = lineCount(before);
    const added = lineCount(after);
    const delta = added - removed;
    const everywhere = edit['replaceAll'] === true ? ', at every occurrence' : '';
    return [
      `replaces ${plural(removed, 'line')} with ${plural(added, 'line')} (${delta >= 0 ? '+' : '-'}${Math.abs(delta)})${everywhere}`,
    ];
  });
  const shown = lines.slice(0, 10).map((line) => bounded(line, MAX_DETAIL_LENGTH));
  const more = lines.length > shown.length ? [`… and ${lines.length - shown.length} more replacements`] : [];
  return edits.length > 1 ? [`${edits.length} replacements`, ...shown, ...more] : [...shown, ...more];
}

function size(text: string): string {
  return `${plural(lineCount(text), 'line')} (${bytes(Buffer.byteLength(text, 'utf8'))})`;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

function bytes(count: number): string {
  if (count < 1024) return `${count} B`;
  if (count < 1024 * 1024) return `${(count / 1024).toFixed(1)} KiB`;
  return `${(count / (1024 * 1024)).toFixed(1)} MiB`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * Cut to the contract's bound with a visible marker, so a request never fails the schema and the user can see
 * that there is more than what is shown.
 */
export function bounded(text: string, limit: number): string {
  if (text.length <= limit) return text;
  let kept = limit;
  for (;;) {
    const marker = ` … [${text.length - kept} more characters not shown]`;
    if (kept + marker.length <= limit || kept === 0) return (text.slice(0, kept) + marker).slice(0, limit);
    kept = Math.max(0, limit - marker.length);
  }
}

function firstString(args: Args, keys: readonly string[]): string | null {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string') return value;
  }
  return null;
}

function asRecord(value: unknown): Args | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Args) : null;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '(arguments that cannot be shown)';
  }
}
