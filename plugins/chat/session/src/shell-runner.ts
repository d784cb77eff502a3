import { stat } from 'node:fs/promises';
import type { SessionEntry } from '@pi/agent';
import {
  SHELL_DEFAULT_TIMEOUT_SECONDS,
  SHELL_LIVE_LIMITS,
  SHELL_OUTPUT_LIMITS,
  type ShellProgress,
  type ShellRequest,
  type ShellResult,
} from '@pi/chat';
import type { Context } from '@pi/context';
import type { AgentPluginScope } from '@pi/plugin-api';
import { RemoteError, quoteForError, type MutableRemoteState } from '@pi/remote';
import { OutputTail, runCommand } from '@pi/shell-command';
import { recordingCall } from './recording-call';
import { shellContextMessage, type ShellRecord } from './shell-record';

/** How often at most the `shell` state carries new output while a command prints. */
const LIVE_EVERY_MS = 100;
/** Between SIGTERM and SIGKILL of the command's process group, as for the bash tool. */
const KILL_GRACE_MS = 1000;

export interface ShellRunnerParts {
  readonly agent: Pick<AgentPluginScope, 'main' | 'appendCustom' | 'appendMessage'>;
  readonly cwd: string;
  readonly live: MutableRemoteState<ShellProgress | null>;
}

/**
 * `Chat.shell`: one user command at a time, never while a run is in progress, run through the same runner as the
 * bash tool (its own process group, a timeout, nothing left running) with the output's tail kept. The `shellRun` state
 * shows it to every client while it runs; the record is then written as a `!!` custom entry or a `!` message.
 */
export class ShellRunner {
  readonly #parts: ShellRunnerParts;
  /** Aborted when the facet is disposed: a running command must not outlive the session's facets. */
  readonly #disposed = new AbortController();
  /** The command running now, if any. */
  #running: string | null = null;
  /** Which command the `shellRun` state shows (until its entry is written), if any. */
  #shown: symbol | null = null;

  constructor(parts: ShellRunnerParts) {
    this.#parts = parts;
  }

  dispose(): void {
    this.#disposed.abort(new Error('the session is stopping'));
  }

  async run(request: ShellRequest, context: Context): Promise<ShellResult> {
    const command = request.command.trim();
    if (command === '') throw new RemoteError('invalid_command', 'There is no command to run');
    if (this.#running !== null)
      throw new RemoteError('busy', `A shell command is running already: ${quoteForError(this.#running)}`);
    const run = this.#parts.agent.main.running;
    if (run !== null) throw new RemoteError('busy', 'The agent is working: run it once the run has ended');
    this.#running = command;
    const { live } = this.#parts;
    const shown = Symbol(command);
    this.#shown = shown;
    // Only the command on show clears the state: the next one may have started while this one's entry is written.
    const clearLive = () => {
      if (this.#shown !== shown) return;
      this.#shown = null;
      live.set(null, context);
    };
    let recorded: Promise<SessionEntry>;
    let record: ShellRecord;
    try {
      const unusable = await unusableDirectory(this.#parts.cwd);
      if (unusable !== null) throw new RemoteError('spawn_failed', unusable);
      const progress = { command, includeInContext: request.includeInContext, startedAt: new Date().toISOString() };
      live.set({ ...progress, output: '' }, context);
      const timeoutSeconds = request.timeoutSeconds ?? SHELL_DEFAULT_TIMEOUT_SECONDS;
      record = await this.#execute(command, timeoutSeconds, this.#signal(context), (output) =>
        live.set({ ...progress, output }, context),
      );
      // Enqueued in this step, so entries follow the order the commands ended in; the next command may start now.
      recorded = this.#record(record, request.includeInContext, context);
    } catch (error) {
      clearLive();
      throw error;
    } finally {
      this.#running = null;
    }
    try {
      const entry = await recorded;
      const { output, exitCode, signal, timedOut, aborted, truncated } = record;
      return { entryId: entry.id, output, exitCode, signal, timedOut, aborted, truncated };
    } finally {
      clearLive();
    }
  }

  /** Runs the command to its end; `onLive` gets the tail of the output so far, a few times a second at most. */
  async #execute(
    command: string,
    timeoutSeconds: number,
    signal: AbortSignal,
    onLive: (output: string) => void,
  ): Promise<ShellRecord> {
    const kept = new OutputTail(SHELL_OUTPUT_LIMITS.bytes, SHELL_OUTPUT_LIMITS.lines);
    const shown = new OutputTail(SHELL_LIVE_LIMITS.bytes, SHELL_LIVE_LIMITS.lines);
    let timer: NodeJS.Timeout | null = null;
    const publish = () => {
      timer = null;
      onLive(shown.output().text);
    };
    const ran = await runCommand({
      command,
      cwd: this.#parts.cwd,
      timeoutMs: timeoutSeconds * 1000,
      killGraceMs: KILL_GRACE_MS,
      signal,
      onOutput: (chunk) => {
        kept.push(chunk);
        shown.push(chunk);
        timer ??= setTimeout(publish, LIVE_EVERY_MS);
      },
    });
    if (timer !== null) {
      // The last of the output shows until the entry is written (which may wait for a run to settle).
      clearTimeout(timer);
      publish();
    }
    if (ran.isErr()) throw new RemoteError('spawn_failed', ran.error.message);
    const { exitCode, timedOut, aborted } = ran.value;
    const { text, truncated, totalBytes } = kept.output();
    const ended = { exitCode, signal: ran.value.signal, timedOut, aborted };
    return { type: 'shell', command, output: text, ...ended, truncated, totalBytes, timeoutSeconds };
  }

  /** The call's cancellation (Escape in the TUI, a lost connection) or the facet's disposal, whichever comes first. */
  #signal(context: Context): AbortSignal {
    const call = context.abortSignal;
    return call === undefined ? this.#disposed.signal : AbortSignal.any([call, this.#disposed.signal]);
  }

  /**
   * `!!` as a custom entry; `!` as a message the model reads. A run that started while the command ran keeps its
   * messages together: the `!` message then waits until it settles, and reaches the model with the prompt after it.
   */
  async #record(record: ShellRecord, includeInContext: boolean, context: Context): Promise<SessionEntry> {
    const { agent } = this.#parts;
    if (!includeInContext) return recordingCall(() => agent.appendCustom(record, context));
    for (;;) {
      const appended = await recordingCall(() => agent.appendMessage(shellContextMessage(record), record, context));
      if (appended.isOk()) return appended.value;
      if (appended.error.code !== 'busy') throw new Error(appended.error.message);
      await agent.main.settled(appended.error.operationId).catch(() => undefined);
    }
  }
}

/** Why no command can run in `cwd` (it is gone, or not a directory), or null when one can. */
async function unusableDirectory(cwd: string): Promise<string | null> {
  try {
    return (await stat(cwd)).isDirectory() ? null : `The working directory ${cwd} is not a directory`;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? `The working directory ${cwd} does not exist`
      : `The working directory ${cwd} cannot be used: ${code ?? 'unknown error'}`;
  }
}
