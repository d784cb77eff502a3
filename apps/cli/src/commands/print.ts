import { Chat, type ChatEvent } from '@pi/chat';
import type { PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT, withAbortSignal, type Context } from '@pi/context';
import { ConfirmInteraction } from '@pi/permissions';
import { PromptResources } from '@pi/prompt-resources';
import { Models, THINKING_LEVELS } from '@pi/providers-builtin';
import { toRemoteError } from '@pi/remote';
import type { PrintFlags } from '../cli-options';
import { EXIT } from '../exit-codes';
import { reportError, type Output } from '../output';
import { openPrintSession } from './print-session';

export interface PrintRun {
  readonly flags: PrintFlags;
  readonly cwd: string;
  readonly dataDir: string | undefined;
}

/**
 * `pi -p "prompt"`: one prompt in the directory's session (started for it when none runs), the final answer on
 * stdout, exit 0; a failed run is one line on stderr and a non-zero exit. `--mode json` prints every chat event of
 * the run as a JSON line instead. Tools that ask for confirmation are denied (nobody is there to answer) unless
 * `--allow-tools`.
 */
export async function printCommand(
  run: PrintRun,
  env: NodeJS.ProcessEnv,
  io: Output,
  interrupted: AbortSignal,
): Promise<number> {
  const opened = await openPrintSession({ cwd: run.cwd, dataDir: run.dataDir, ephemeral: run.flags.noSession }, env);
  if (opened.isErr()) return reportError(io, opened.error, false);
  const { client } = opened.value;
  const context = withAbortSignal(interrupted, BACKGROUND_CONTEXT);
  try {
    if (run.flags.allowTools) client.handle(ConfirmInteraction, async () => ({ decision: 'allow_once' }));
    if (run.flags.model !== undefined) {
      const problem = await selectModel(client, run.flags.model, context);
      if (problem !== undefined) {
        io.err(`pi: ${problem}`);
        return EXIT.usage;
      }
    }
    const chat = await client.use(Chat);
    let operationId: string | undefined;
    const early: ChatEvent[] = [];
    let answer = '';
    const settled = new Promise<{ outcome: string; error: string | null }>((settle) => {
      const handle = (event: ChatEvent) => {
        if (!('operationId' in event) || event.operationId !== operationId) return;
        if (run.flags.mode === 'json' && !interrupted.aborted) io.out(JSON.stringify(event));
        if (event.type === 'final') answer = event.entry.text;
        if (event.type === 'settled') settle({ outcome: event.outcome, error: event.error });
      };
      interrupted.addEventListener(
        'abort',
        () => {
          if (operationId !== undefined) void chat.requestAbort(operationId, BACKGROUND_CONTEXT).catch(() => undefined);
          settle({ outcome: 'interrupted', error: null });
        },
        { once: true },
      );
      // Events may arrive before the prompt's answer names the operation: kept, then handled in order.
      chat.events.subscribe((event) => (operationId === undefined ? early.push(event) : handle(event)));
      void (async () => {
        const text = await expandedPrompt(client, run.flags.prompt, context);
        const response = await chat.prompt({ text }, context);
        if (!response.accepted) {
          settle({ outcome: 'rejected', error: response.error?.message ?? 'the prompt was refused' });
          return;
        }
        operationId = response.operationId ?? undefined;
        for (const event of early.splice(0)) handle(event);
      })().catch((error: unknown) => settle({ outcome: 'failed', error: toRemoteError(error).message }));
    });
    const result = await settled;
    if (result.outcome === 'completed') {
      if (run.flags.mode === 'text') io.out(answer);
      return EXIT.ok;
    }
    io.err(`pi: the run ${result.outcome}${result.error === null ? '' : `: ${result.error}`}`);
    return EXIT.failed;
  } catch (error) {
    return reportError(io, toRemoteError(error), false);
  } finally {
    await opened.value.close();
  }
}

/**
 * The prompt a `/template args` or `/skill:name request` line stands for in this session, as the TUI sends it;
 * any other text, or a session without skills and templates, as typed.
 */
async function expandedPrompt(client: PiClient, text: string, context: Context): Promise<string> {
  if (!text.trimStart().startsWith('/')) return text;
  const resources = await client.use(PromptResources).catch(() => undefined);
  return (await resources?.expand({ line: text }, context))?.text ?? text;
}

const MODEL_SPEC = new RegExp(`^([^/:\\s]+)/([^:\\s]+)(?::(${THINKING_LEVELS.join('|')}))?$`);

/** `provider/modelId[:thinking]` selected in the session; a problem in words, or undefined when done. */
async function selectModel(client: PiClient, spec: string, context: Context): Promise<string | undefined> {
  const match = MODEL_SPEC.exec(spec);
  if (match === null) return `--model takes provider/modelId[:${THINKING_LEVELS.join('|')}], got "${spec}"`;
  const [, provider = '', modelId = '', thinking] = match;
  const models = await client.use(Models);
  await models.select({ provider, modelId }, context);
  if (thinking === undefined) return undefined;
  for (let step = 0; step < THINKING_LEVELS.length; step += 1) {
    if (models.state.value.configuration.thinkingLevel === thinking) return undefined;
    await models.cycleThinking(context);
  }
  return models.state.value.configuration.thinkingLevel === thinking
    ? undefined
    : `${provider}/${modelId} cannot think at "${thinking}"`;
}
