import type { TuiCommand, TuiTheme } from '@pi/plugin-api';
import { padRight, visibleWidth, wrapText, type Action, type Keymap } from '@pi/terminal';

/** What each key action does, in the order `/help` lists them. */
const KEY_HELP: ReadonlyArray<readonly [Action, string]> = [
  ['submit', 'send the prompt (while the agent works: steer it)'],
  ['followUp', 'queue a follow-up for when the agent is done'],
  ['dequeue', 'pull the last queued message back into the editor'],
  ['newline', 'insert a newline'],
  ['externalEditor', 'edit the prompt in $VISUAL or $EDITOR'],
  ['interrupt', 'interrupt the run'],
  ['clear', 'clear the editor; twice quits'],
  ['quit', 'quit (on an empty editor)'],
  ['modelPicker', 'pick a model'],
  ['thinkingCycle', 'cycle the thinking level'],
  ['expandTools', 'expand or collapse tool output'],
  ['pageUp', 'scroll up'],
  ['pageDown', 'scroll down'],
  ['scrollToEnd', 'follow the output again'],
  ['historyPrevious', 'previous prompt (on the first line)'],
  ['historyNext', 'next prompt (on the last line)'],
];

/** The width of the name column; a longer name takes its own line. */
const NAME_COLUMN = 18;

/**
 * `/help` at `width` columns: the slash commands (by name), then the keys (the keymap's, then keys plugins bound to
 * commands, each with its command's description). Descriptions wrap under themselves; nothing shows an internal id.
 */
/** What `/help` and `/hotkeys` are read from, as the registries are when they run, and the width they are drawn at. */
export interface HelpSource {
  readonly commands: readonly TuiCommand[];
  readonly keymap: Keymap;
  readonly bindings: ReadonlyMap<string, { commandId: string }>;
  readonly theme: TuiTheme;
  readonly width: number;
}

export function helpLines(source: HelpSource): string[] {
  const { commands, theme } = source;
  const slashed = commands
    .filter((command) => command.slash !== undefined)
    .sort((a, b) => (a.slash ?? '').localeCompare(b.slash ?? ''));
  const lines = ['', theme.bold('Commands')];
  for (const command of slashed) {
    const usage = command.arguments === undefined ? '' : ` ${command.arguments.hint}`;
    lines.push(...describedRow(`/${command.slash}${usage}`, command.description, source));
  }
  return [...lines, ...keyLines(source)];
}

/** The keys part of `/help` (`/hotkeys`): the keymap's actions, then keys plugins bound to commands. */
export function keyLines(source: HelpSource): string[] {
  const { commands, keymap, bindings, theme } = source;
  const row = (name: string, description: string) => describedRow(name, description, source);
  const lines = ['', theme.bold('Keys')];
  for (const [action, description] of KEY_HELP) {
    const keys = keymap.keysFor(action);
    if (keys.length > 0) lines.push(...row(keys.join(', '), description));
  }
  const byId = new Map(commands.map((command) => [command.id, command]));
  for (const [key, { commandId }] of bindings) {
    const command = byId.get(commandId);
    if (command !== undefined) lines.push(...row(key, command.description));
  }
  return lines;
}

function describedRow(name: string, description: string, { width, theme }: HelpSource): string[] {
  const indent = ' '.repeat(2 + NAME_COLUMN + 1);
  const text = wrapText(description, Math.max(20, width - indent.length));
  const label = `  ${theme.fg('accent', name)}`;
  if (visibleWidth(name) > NAME_COLUMN) return [label, ...text.map((line) => `${indent}${line}`)];
  const [first = '', ...rest] = text;
  return [`  ${theme.fg('accent', padRight(name, NAME_COLUMN))} ${first}`, ...rest.map((line) => `${indent}${line}`)];
}
