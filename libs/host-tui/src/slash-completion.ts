import type { CompletionItem, CompletionSource, TuiCommand } from '@pi/plugin-api';
import type { CommandRegistry } from './command-registry';

/** The `/` menu as a completion source: every slash command, as registered when asked. */
export function slashCompletionSource(commands: CommandRegistry): CompletionSource {
  return { trigger: '/', position: 'promptStart', complete: (query) => slashItems(commands.list(), query) };
}

/**
 * The slash commands for `query` (what follows `/`), in name order: those whose name starts with it (an exact name
 * first), then those that contain it elsewhere. Enter on one runs it unless it needs arguments.
 */
export function slashItems(commands: readonly TuiCommand[], query: string): CompletionItem[] {
  const wanted = query.toLowerCase();
  const named = commands
    .flatMap((command) => (command.slash === undefined ? [] : [{ name: command.slash.toLowerCase(), command }]))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const starting = named.filter(({ name }) => name.startsWith(wanted));
  const containing = named.filter(({ name }) => !name.startsWith(wanted) && name.includes(wanted));
  return [...starting, ...containing].map(({ command }) => ({
    insert: `/${command.slash} `,
    label: command.arguments === undefined ? `/${command.slash}` : `/${command.slash} ${command.arguments.hint}`,
    description: command.description,
    submitOnEnter: command.arguments?.required !== true,
  }));
}
