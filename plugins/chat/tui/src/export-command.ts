import { Chat, type ExportRequest, type ExportResult } from '@pi/chat';
import { RemoteError, type CodingAgentTuiPluginContext, type Context } from '@pi/plugin-api';

/** The command id (keybindings name it). */
export const EXPORT_COMMAND = 'chat.export';

/**
 * `/export [file]`: the session writes itself as one HTML page (its machine, relative to its working directory;
 * `pi-session-<id>.html` there without a file). A file that exists is replaced only once the user confirms.
 */
export function registerExportCommand(context: CodingAgentTuiPluginContext): void {
  const { ui } = context;
  context.commands.register({
    id: EXPORT_COMMAND,
    slash: 'export',
    description: 'Write the session as one HTML page (default: pi-session-<id>.html in the project)',
    arguments: { hint: '[file]' },
    needsSession: true,
    async run(args, call) {
      const path = args.trim();
      const request: ExportRequest = path === '' ? {} : { path };
      const written = await exportOrAsk(context, request, call);
      if (written !== null) ui.notify(exportedText(written));
    },
  });
}

/** The export, or null when it failed (said in a notice) or the user kept the existing file. */
async function exportOrAsk(
  context: CodingAgentTuiPluginContext,
  request: ExportRequest,
  call: Context,
): Promise<ExportResult | null> {
  const { ui } = context;
  const chat = await context.use(Chat);
  try {
    return await chat.exportHtml(request, call);
  } catch (failure) {
    if (!(failure instanceof RemoteError && failure.code === 'file_exists')) return notExported(context, failure);
    const replace = await ui.confirm('Replace the file?', `${failure.message}. Replace it with this session's page?`);
    if (!replace) {
      ui.notify('Not exported: the file was left as it was');
      return null;
    }
  }
  try {
    return await chat.exportHtml({ ...request, overwrite: true }, call);
  } catch (failure) {
    return notExported(context, failure);
  }
}

function notExported(context: CodingAgentTuiPluginContext, failure: unknown): null {
  const message = failure instanceof Error ? failure.message : String(failure);
  context.ui.notify(`Not exported: ${message}`, 'error');
  return null;
}

export function exportedText(result: ExportResult): string {
  const size = result.bytes < 1024 ? `${result.bytes} bytes` : `${(result.bytes / 1024).toFixed(1)} KiB`;
  return `Exported the session to ${result.path} (${size})`;
}
