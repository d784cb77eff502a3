import type { TranscriptAccess, TuiTheme } from '@pi/plugin-api';
import { wrapText, type Keymap } from '@pi/terminal';
import type { CommandRegistry } from './command-registry';
import { helpLines, keyLines } from './help';
import type { SlotRegistry } from './slot-registry';

export interface HostCommandParts {
  readonly commands: CommandRegistry;
  readonly slots: SlotRegistry;
  readonly transcript: TranscriptAccess;
  readonly keymap: Keymap;
  readonly bindings: ReadonlyMap<string, { commandId: string }>;
  readonly theme: TuiTheme;
  readonly quit: () => void;
}

/**
 * What the host itself offers before any facet: the first words of the welcome, `/help` and `/hotkeys` (read from
 * the registries as they are when run: nothing in them is hard-coded), `/quit` and `/exit`.
 */
export function registerHostCommands(parts: HostCommandParts): void {
  const { commands, keymap, bindings, theme, transcript } = parts;
  // The welcome starts with the host's own word (typing, the keys that matter first); the facets' follow.
  parts.slots.add('host', 'welcome', {
    render: (width) => [
      theme.bold('Welcome to pi.'),
      ...wrapText(
        `Type a request and press ${keymap.hint('submit')} (while it works, ${keymap.hint('submit')} steers it and ${keymap.hint('followUp')} queues a follow-up). ${keymap.hint('externalEditor')} opens your editor, ${keymap.hint('interrupt')} interrupts, /help lists commands and keys.`,
        width,
      ),
    ],
  });

  commands.register('host', {
    id: 'quit',
    slash: 'quit',
    description: 'Quit pi (the session keeps running for the next time)',
    run: () => parts.quit(),
  });
  commands.register('host', { id: 'exit', slash: 'exit', description: 'Quit pi, as /quit', run: () => parts.quit() });

  let shown = 0;
  const show = (lines: (width: number) => string[]) => {
    shown += 1;
    transcript.upsert(`help:${shown}`, { render: lines });
  };
  commands.register('host', {
    id: 'hotkeys',
    slash: 'hotkeys',
    description: 'List the keys and what they do',
    run: () => show((width) => keyLines({ commands: commands.list(), keymap, bindings, theme, width })),
  });
  commands.register('host', {
    id: 'help',
    slash: 'help',
    description: 'List every command and key binding',
    run: () => show((width) => helpLines({ commands: commands.list(), keymap, bindings, theme, width })),
  });
}
