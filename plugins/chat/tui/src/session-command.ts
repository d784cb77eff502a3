import { Chat, type SessionInfo } from '@pi/chat';
import type { CodingAgentTuiPluginContext } from '@pi/plugin-api';

/** The command id (keybindings name it). */
export const SESSION_COMMAND = 'chat.session';

/** `/session`: which session this is, its file, what it holds and what it used, as a block in the transcript. */
export function registerSessionCommand(context: CodingAgentTuiPluginContext): void {
  context.commands.register({
    id: SESSION_COMMAND,
    slash: 'session',
    description: "Show this session's id, file, message counts, tokens and cost",
    needsSession: true,
    async run(_args, call) {
      const chat = await context.use(Chat);
      const lines = sessionInfoLines(await chat.info(call));
      const { theme } = context.ui;
      context.transcript.upsert('chat.session-info', {
        render: () => [theme.bold(lines[0] ?? ''), ...lines.slice(1).map((line) => theme.fg('muted', line))],
      });
    },
  });
}

/** The block's lines, in words a person reads at a glance. */
export function sessionInfoLines(info: SessionInfo): string[] {
  const count = (value: number) => value.toLocaleString('en-US');
  const { messages, usage } = info;
  return [
    `Session ${info.sessionId}`,
    `  File: ${info.file}`,
    `  Messages: ${count(messages.user)} from you, ${count(messages.assistant)} from the model, ${count(messages.tool)} tool results (${count(info.entries)} entries)`,
    `  Tokens: ${count(usage.input)} in, ${count(usage.output)} out, ${count(usage.cacheRead)} read from the cache, ${count(usage.cacheWrite)} written to it`,
    `  Cost: ${usage.cost > 0 ? `$${usage.cost.toFixed(4)}` : 'none recorded (the model has no prices, or is local)'}`,
  ];
}
