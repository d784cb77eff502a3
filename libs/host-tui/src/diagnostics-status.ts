import type { Context } from '@pi/context';
import {
  Diagnostics,
  type DiagnosticEntry,
  type DiagnosticsService,
  type TranscriptAccess,
  type TuiTheme,
} from '@pi/plugin-api';
import type { RpcClient } from '@pi/transport-trpc';
import { wrapText } from '@pi/terminal';
import type { CallbackFailures } from '@pi/host-kit';
import type { CommandRegistry } from './command-registry';
import type { SlotRegistry } from './slot-registry';

export interface DiagnosticsStatusParts {
  readonly client: RpcClient;
  readonly slots: SlotRegistry;
  readonly commands: CommandRegistry;
  readonly transcript: TranscriptAccess;
  readonly theme: TuiTheme;
  /** This TUI's own plugin failures. */
  readonly localFailures: CallbackFailures;
  readonly render: () => void;
}

/**
 * The host's diagnostics: a footer line counting what went wrong that the user has not looked at (the session's
 * diagnostics service and this TUI's own plugin failures), and `/diagnostics`, which lists them and marks them seen.
 * A session that serves no diagnostics (an older one) leaves only this TUI's own.
 */
export function registerDiagnostics(parts: DiagnosticsStatusParts): () => void {
  const { theme } = parts;
  let session: DiagnosticsService | undefined;
  let seenLocal = 0;
  let closed = false;
  let stopWatching = (): void => undefined;
  let release = (): void => undefined;
  parts.client
    .acquire(Diagnostics)
    .then((lease) => {
      if (closed) return void lease.release();
      session = lease.service;
      release = () => lease.release();
      stopWatching = lease.service.state.subscribe(() => parts.render());
    })
    .catch(() => undefined);

  const unseen = () => (session?.state.value.unseen ?? 0) + parts.localFailures.total - seenLocal;
  const removeSlot = parts.slots.add('host', 'footer', {
    render: () => {
      const count = unseen();
      if (count === 0) return [];
      const text = `⚠ ${count} ${count === 1 ? 'problem' : 'problems'} in plugins — /diagnostics lists them`;
      return [theme.fg('warning', text)];
    },
  });

  let shown = 0;
  const removeCommand = parts.commands.register('host', {
    id: 'diagnostics',
    slash: 'diagnostics',
    description: 'List what went wrong in plugins (failing hooks, rebuild errors, repairs, missing tools)',
    run: async (_args: string, context: Context) => {
      const entries = [...(session?.state.value.entries ?? [])];
      const local = parts.localFailures.list().map(({ owner, message }) => `${owner}: ${message}`);
      seenLocal = parts.localFailures.total;
      shown += 1;
      parts.transcript.upsert(`diagnostics:${shown}`, {
        render: (width) => diagnosticsLines(entries, local, theme, width),
      });
      await session?.clear(context);
      parts.render();
    },
  });

  return () => {
    closed = true;
    stopWatching();
    release();
    removeSlot();
    removeCommand();
  };
}

function diagnosticsLines(
  entries: readonly DiagnosticEntry[],
  local: readonly string[],
  theme: TuiTheme,
  width: number,
): string[] {
  if (entries.length === 0 && local.length === 0) return [theme.fg('muted', 'No diagnostics: every plugin is fine.')];
  const lines = [theme.bold('Diagnostics')];
  for (const entry of entries) {
    const time = new Date(entry.at).toLocaleTimeString();
    const colour = entry.severity === 'info' ? 'muted' : entry.severity;
    const text = `${time} ${entry.severity} ${entry.source} (${entry.kind}): ${entry.message}`;
    lines.push(...wrapText(text, width).map((line) => theme.fg(colour, line)));
  }
  for (const failure of local)
    lines.push(...wrapText(`this TUI: ${failure}`, width).map((line) => theme.fg('error', line)));
  return lines;
}
