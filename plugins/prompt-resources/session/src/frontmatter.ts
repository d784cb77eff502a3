import { err, ok, type Result } from 'neverthrow';
import { parse } from 'yaml';

/** A markdown file split into its YAML frontmatter (null when it has none) and the text after it. */
export interface MarkdownWithFrontmatter {
  readonly frontmatter: Readonly<Record<string, unknown>> | null;
  readonly body: string;
}

const FENCE = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/**
 * Splits `text` at a leading `---` fenced YAML block. A block that is not YAML, or whose YAML is not a mapping, is
 * an error in one sentence; text without a block has no frontmatter.
 */
export function splitFrontmatter(text: string): Result<MarkdownWithFrontmatter, string> {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const match = FENCE.exec(source);
  if (match === null) {
    return source.startsWith('---') && /^---[ \t]*\r?\n/.test(source)
      ? err('its frontmatter has no closing ---')
      : ok({ frontmatter: null, body: source });
  }
  let data: unknown;
  try {
    data = parse(match[1] ?? '');
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return err(`its frontmatter is not valid YAML (${message})`);
  }
  if (data === null || data === undefined) return ok({ frontmatter: {}, body: source.slice(match[0].length) });
  if (typeof data !== 'object' || Array.isArray(data)) return err('its frontmatter is not a mapping of keys to values');
  return ok({ frontmatter: data as Record<string, unknown>, body: source.slice(match[0].length) });
}
