import { SKILL_COMMAND_PREFIX } from '@pi/prompt-resources';

/** What a prompt line starting with `/` asks for: a skill (`/skill:name`) or a template (`/name`), with arguments. */
export interface SlashLine {
  readonly kind: 'skill' | 'template';
  readonly name: string;
  /** The rest of the line, trimmed. */
  readonly args: string;
}

/** `/name rest` or `/skill:name rest` → what it names; null for a line that is no slash command. */
export function parseSlashLine(line: string): SlashLine | null {
  const match = /^\/([a-z][\w:-]*)(?:\s+([\s\S]*))?$/i.exec(line.trim());
  if (match === null) return null;
  const [, command = '', rest = ''] = match;
  const args = rest.trim();
  if (command.startsWith(SKILL_COMMAND_PREFIX)) {
    return { kind: 'skill', name: command.slice(SKILL_COMMAND_PREFIX.length), args };
  }
  return { kind: 'template', name: command, args };
}
