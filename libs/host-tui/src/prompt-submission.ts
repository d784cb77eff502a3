import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import type { Editor } from '@pi/editor';
import type { SubmitAction, TuiFacilities } from '@pi/plugin-api';
import type { CommandRegistry } from './command-registry';

type SubmitHandler = (text: string, context: Context, action: SubmitAction) => void | Promise<void>;

export interface PromptSubmissionOptions {
  readonly commands: CommandRegistry;
  readonly editor: Editor;
  readonly notify: TuiFacilities['notify'];
  /** Whether the session's connection is up: a prompt or a session command waits in the editor otherwise. */
  readonly connected: () => boolean;
}

/**
 * Where submitted text goes: a slash command runs, anything else goes to the prompt handler (the latest `onSubmit`),
 * and prompts typed before the TUI could attach go once connected. What cannot go stays in the editor, with a notice.
 */
export class PromptSubmission {
  readonly #options: PromptSubmissionOptions;
  readonly #handlers: SubmitHandler[] = [];
  /** The prompts waiting in `submitWhenConnected`, each woken when the connection changes or the host stops. */
  readonly #waiting = new Set<() => void>();
  #stopped = false;

  constructor(options: PromptSubmissionOptions) {
    this.#options = options;
  }

  /** Sets the prompt handler until the returned function is called (the one set before is back then). */
  onSubmit(handler: SubmitHandler): () => void {
    this.#handlers.push(handler);
    return () => {
      const index = this.#handlers.lastIndexOf(handler);
      if (index >= 0) this.#handlers.splice(index, 1);
    };
  }

  async runCommand(id: string, args: string): Promise<void> {
    const { commands, notify } = this.#options;
    const command = commands.get(id);
    if (command === undefined) return notify(`No command "${id}"`, 'warning');
    if (command.needsSession === true && !this.#options.connected()) {
      return notify(
        `Not connected to the session: ${command.slash === undefined ? id : `/${command.slash}`} needs it`,
        'warning',
      );
    }
    try {
      await command.run(args, BACKGROUND_CONTEXT);
    } catch (error) {
      notify(`${command.slash === undefined ? id : `/${command.slash}`} failed: ${messageOf(error)}`, 'error');
    }
  }

  async submit(text: string, action: SubmitAction): Promise<void> {
    const slash = this.#options.commands.parseSlash(text);
    if (slash !== undefined) {
      if ('unknown' in slash) {
        this.#options.editor.setText(text);
        return this.#options.notify(
          `Unknown command /${slash.unknown} — /help lists them (text after it sends it to the model)`,
          'warning',
        );
      }
      return this.runCommand(slash.command.id, slash.args);
    }
    return this.sendPrompt(text, action);
  }

  /** Hands text to the prompt handler (the latest `onSubmit`), never reading it as a slash command. */
  async sendPrompt(text: string, action: SubmitAction): Promise<void> {
    const { editor, notify } = this.#options;
    const handler = this.#handlers.at(-1);
    if (handler === undefined) return notify('Nothing here takes a prompt', 'warning');
    if (!this.#options.connected()) {
      editor.setText(text);
      return notify('Not connected to the session: the prompt stays in the editor', 'warning');
    }
    try {
      await handler(text, BACKGROUND_CONTEXT, action);
    } catch (error) {
      notify(`The prompt failed: ${messageOf(error)}`, 'error');
    }
  }

  /** Sends each prompt once connected, after the previous one was handled (a command may take a while). */
  async submitWhenConnected(prompts: readonly string[]): Promise<void> {
    for (const text of prompts) {
      while (!this.#options.connected() && !this.#stopped) {
        await new Promise<void>((resolve) => this.#waiting.add(resolve));
      }
      if (this.#stopped) return;
      await this.submit(text, 'followUp');
    }
  }

  /** The connection changed: queued prompts look again. */
  connectionChanged(): void {
    this.#wakeWaiting();
  }

  /** Queued prompts are dropped. */
  stop(): void {
    this.#stopped = true;
    this.#wakeWaiting();
  }

  /** Every waiter hears it, not only the latest: each call of `submitWhenConnected` waits on its own. */
  #wakeWaiting(): void {
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const wake of waiting) wake();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
