import { randomUUID } from 'node:crypto';
import { BACKGROUND_CONTEXT, type Context, type TelemetryContext } from '@pi/context';
import { err, ok, type Result } from 'neverthrow';
import type { ResumePoint, RunPlan } from './agent-run';
import { QueueCallers } from './queue-callers';
import type { HarnessHooks } from './harness-hooks';
import { errorMessage } from './error-text';
import { eventDeliveryContext, type HarnessEventHub } from './harness-events';
import type { HarnessOptions } from './harness-types';
import type {
  AbortRejection,
  AgentLane,
  PromptAcceptance,
  PromptOptions,
  PromptRejection,
  QueueAcceptance,
  QueueItem,
  QueueItemKind,
  QueueOptions,
  QueueRejection,
  RunOutcome,
  RunSettings,
  WithdrawRejection,
} from '@pi/agent-contract';
import type { UserMessage } from '@pi/agent-contract';
import { invalidClientOperationId } from './client-operations';
import { INTERRUPTED_WHY } from './interrupted-operations';
import { LaneQueue } from './lane-queue';
import { cancelRun, executeRun, newRun, type ActiveRun, type RunLane } from './lane-run';
import type { MessageQueue } from './message-queue';
import { checkPromptMessages } from './prompt-messages';
import { decideParked, type ParkedRun } from './parked-run';
import { promptTooLarge } from './prompt-size';
import { resolveRunModel } from './run-model';
import { writeSettlement } from './run-settlement';
import type { SessionTreeState } from './session-tree';
import { DEFAULT_MAX_TURNS } from './max-turns';
import { SessionFileUnwritable } from './session-file-fault';
import type { EntryBody, SessionWriter } from './session-writer';

export interface MainLaneParts {
  writer: SessionWriter;
  tree: SessionTreeState;
  hooks: HarnessHooks;
  events: HarnessEventHub;
  options: HarnessOptions;
  /** Outcomes already in the file, so `settled` and `requestAbort` know restored operations. */
  restoredOutcomes: ReadonlyMap<string, RunOutcome>;
  /** Client operation id → run id, from the file's `operation_started` entries, so a resend after restart is known. */
  restoredClientOperations: ReadonlyMap<string, string>;
  /** The queue the file leaves: it waits for `startQueue`. */
  restoredQueue: MessageQueue;
  /** The run the file leaves parked in a tool round: the lane's run from the start, resumed or settled by `startQueue`. */
  parked: ParkedRun | null;
  /** Adds a line to the harness's `recovery`. */
  report: (line: string) => void;
}

/** A run's user message, and the queued item it delivers (when it came from the queue). */
interface RunMessage {
  readonly message: UserMessage;
  readonly queueItemId?: string;
}

interface ClaimedRun {
  readonly run: ActiveRun;
  readonly plan: RunPlan;
}

type NoModel = Extract<PromptRejection, { code: 'no_model' }>;
type Unwritable = Extract<PromptRejection, { code: 'session_file_unwritable' }>;

/**
 * The main lane: one run at a time, durable from acceptance (`operation_started`) to settlement
 * (`operation_settled`). A run lives on its own controller and telemetry root, detached from the
 * invocation that started it: an invocation's cancellation or disconnect never reaches it.
 * A session file that cannot be written refuses a prompt (`session_file_unwritable`: nothing was recorded, nothing
 * started); a run it stops settles failed in memory, and the file is owed that settlement ahead of its next entry.
 */
export class MainLane implements AgentLane {
  readonly #parts: MainLaneParts;
  readonly #outcomes: Map<string, RunOutcome>;
  readonly #clientOperations: Map<string, string>;
  readonly #queue: LaneQueue;
  readonly #queueCallers = new QueueCallers();
  /** What its runs need of the lane. */
  readonly #lane: RunLane;
  #active: ActiveRun | null = null;
  #closing = false;
  /** Whether queued items may start runs: a restored queue waits until the host starts it. */
  #queueStarted: boolean;
  /** The parked run the file left, until `startQueue` resumes or settles it. */
  #parked: ParkedRun | null;

  constructor(parts: MainLaneParts) {
    this.#parts = parts;
    this.#outcomes = new Map(parts.restoredOutcomes);
    this.#clientOperations = new Map(parts.restoredClientOperations);
    const { restoredQueue: queue, writer, events } = parts;
    this.#queue = new LaneQueue({ queue, writer, events, running: () => this.running });
    this.#lane = { ...parts, queue: this.#queue, closing: () => this.#closing };
    this.#queueStarted = queue.isEmpty;
    this.#parked = parts.parked;
    // A parked run holds the lane from the start: nothing else starts before it is resumed or settled.
    if (parts.parked !== null) this.#active = newRun(parts.parked.operationId);
  }

  get running(): string | null {
    return this.#active?.operationId ?? null;
  }

  async prompt(
    messages: readonly UserMessage[],
    context: Context,
    options: PromptOptions = {},
  ): Promise<Result<PromptAcceptance, PromptRejection>> {
    if (this.#closing) throw new Error('prompt on a closed harness');
    const { clientOperationId } = options;
    if (clientOperationId !== undefined) {
      // A resend is answered before anything else is looked at: the first send's run is the answer, running or not.
      const known = this.#clientOperations.get(clientOperationId);
      if (known !== undefined) return ok({ operationId: known, duplicate: true });
      const invalid = invalidClientOperationId(clientOperationId, (id) => this.#queue.itemOf(id) !== undefined);
      if (invalid !== null) return err(invalid);
    }
    const checked = checkPromptMessages(messages);
    if (checked.isErr()) return err(checked.error);
    // The one read of the settings for this run: the size check and the run use the same model.
    const settings = this.#parts.options.settings();
    const tooLarge = promptTooLarge(checked.value, settings, this.#parts.options.providers());
    if (tooLarge !== null) return err(tooLarge);
    const active = this.#active;
    if (active !== null) {
      return err({
        code: 'busy',
        message: `Operation ${active.operationId} is still running`,
        operationId: active.operationId,
      });
    }
    return this.#startNow(
      checked.value.map((message) => ({ message })),
      clientOperationId,
      context,
      settings,
    );
  }

  steer(
    message: UserMessage,
    context: Context,
    options: QueueOptions = {},
  ): Promise<Result<QueueAcceptance, QueueRejection>> {
    return this.#enqueue('steer', message, context, options);
  }

  followUp(
    message: UserMessage,
    context: Context,
    options: QueueOptions = {},
  ): Promise<Result<QueueAcceptance, QueueRejection>> {
    return this.#enqueue('follow-up', message, context, options);
  }

  withdraw(itemId: string, context: Context): Promise<Result<void, WithdrawRejection>> {
    return this.#queue.withdraw(itemId, context);
  }

  get queue(): readonly QueueItem[] {
    return this.#queue.items;
  }

  /**
   * Lets a restored queue run, and first the parked run (the host calls it once its facets, and so the tools,
   * providers and listeners, are up): resumed when its tools may run again, else settled as interrupted.
   */
  startQueue(): void {
    this.#queueStarted = true;
    const parked = this.#parked;
    this.#parked = null;
    const run = this.#active;
    if (parked === null || run?.operationId !== parked.operationId) return this.#drain();
    const decision = decideParked(parked, run.cancel !== null, this.#parts.options);
    this.#parts.report(decision.line);
    if (decision.kind === 'resume') {
      void this.#execute(run, decision.plan, [], decision.from);
      return;
    }
    const { operationId } = parked;
    void this.#finish(
      run,
      writeSettlement(this.#parts, operationId, decision.outcome, BACKGROUND_CONTEXT, INTERRUPTED_WHY),
    );
  }

  async #enqueue(
    kind: QueueItemKind,
    message: UserMessage,
    context: Context,
    { clientOperationId }: QueueOptions,
  ): Promise<Result<QueueAcceptance, QueueRejection>> {
    if (this.#closing) throw new Error(`${kind} on a closed harness`);
    if (clientOperationId !== undefined) {
      // As for prompt: a resend is answered with the first send's acceptance, queued or started.
      const item = this.#queue.itemOf(clientOperationId);
      if (item !== undefined) return ok({ kind: 'queued', itemId: item, duplicate: true });
      const run = this.#clientOperations.get(clientOperationId);
      if (run !== undefined) return ok({ kind: 'started', operationId: run, duplicate: true });
      const invalid = invalidClientOperationId(clientOperationId, (id) => this.#queue.itemOf(id) !== undefined);
      if (invalid !== null) return err(invalid);
    }
    const checked = checkPromptMessages([message]);
    if (checked.isErr()) return err(checked.error);
    const [accepted] = checked.value;
    if (accepted === undefined) throw new Error('a checked prompt lost its message');
    const settings = this.#parts.options.settings();
    const tooLarge = promptTooLarge([accepted], settings, this.#parts.options.providers());
    if (tooLarge !== null) return err(tooLarge);
    if (this.#active === null && this.#queue.isEmpty) {
      // Nothing to wait for: it is a prompt.
      const started = await this.#startNow([{ message: accepted }], clientOperationId, context, settings);
      return started.map(({ operationId }) => ({ kind: 'started' as const, operationId, duplicate: false }));
    }
    const added = await this.#queue.add(kind, accepted, clientOperationId, context);
    if (added.isErr()) return err(added.error);
    this.#queueCallers.remember(added.value, context.telemetryContext, this.#parts.options.originatorOf?.(context));
    // A queue with no run to follow (restored and just started, or stalled without a model) is tried again now.
    this.#drain();
    return ok({ kind: 'queued', itemId: added.value, duplicate: false });
  }

  /** Starts a run of `messages` now; the caller checked that the lane is free. */
  async #startNow(
    messages: readonly RunMessage[],
    clientOperationId: string | undefined,
    context: Context,
    settings: RunSettings,
  ): Promise<Result<PromptAcceptance, NoModel | Unwritable>> {
    const claimed = this.#claim(settings, this.#parts.options.originatorOf?.(context) ?? null);
    if (claimed.isErr()) return err(claimed.error);
    if (clientOperationId !== undefined) this.#clientOperations.set(clientOperationId, claimed.value.run.operationId);
    const begun = await this.#begin(claimed.value, messages, clientOperationId, context, [context.telemetryContext]);
    if (begun.isErr()) return err(begun.error);
    return ok({ operationId: claimed.value.run.operationId, duplicate: false });
  }

  /**
   * When the lane is free and the queue may run: the waiting steers (all of them), else the first follow-up, start
   * the next run. Without a model they stay queued, and the next settlement (or send) tries again.
   */
  #drain(): void {
    if (this.#closing || !this.#queueStarted || this.#active !== null) return;
    const next = this.#queue.peekNext();
    if (next.length === 0) return;
    const claimed = this.#claim(undefined, this.#queueCallers.originatorOf(next));
    if (claimed.isErr()) return;
    const items = this.#queue.take(next, BACKGROUND_CONTEXT);
    // A follow-up's own id names the run it started, so `operation` can report it and a resend of prompt is known.
    const clientOperationId = items.length === 1 ? this.#queue.clientOperationIdOf(items[0]?.id ?? '') : undefined;
    if (clientOperationId !== undefined && !this.#clientOperations.has(clientOperationId))
      this.#clientOperations.set(clientOperationId, claimed.value.run.operationId);
    const messages = items.map((item) => ({ message: item.message, queueItemId: item.id }));
    const links = this.#queueCallers.take(items, this.#queue.items);
    // Nobody waits on this start but the run itself: a file that cannot be written leaves the items waiting.
    void this.#begin(claimed.value, messages, clientOperationId, BACKGROUND_CONTEXT, links).then(
      (begun) => begun.isErr() && this.#queue.putBack(items, BACKGROUND_CONTEXT),
      () => undefined,
    );
  }

  /** Claims the lane for a new run, in one synchronous step: a concurrent send sees it at once. */
  #claim(settings = this.#parts.options.settings(), originator: string | null = null): Result<ClaimedRun, NoModel> {
    // Settings are read once per run (here, or by the send that started it): a later change applies to the next run.
    const model = resolveRunModel(settings, this.#parts.options.providers());
    if (model.isErr()) return err(model.error);
    const operationId = randomUUID();
    const run = newRun(operationId);
    this.#active = run;
    const maxTurns = this.#parts.options.maxTurns ?? DEFAULT_MAX_TURNS;
    const plan = { operationId, ...model.value, thinkingLevel: settings.thinkingLevel, maxTurns, originator };
    return ok({ run, plan });
  }

  /**
   * Records the run's acceptance (`operation_started`, then its messages, in one write) and sets it going. When the
   * file cannot be written nothing of it exists: the lane is free again and the client's id may be sent again.
   */
  async #begin(
    { run, plan }: ClaimedRun,
    messages: readonly RunMessage[],
    clientOperationId: string | undefined,
    context: Context,
    links: readonly TelemetryContext[],
  ): Promise<Result<void, Unwritable>> {
    const { operationId } = run;
    const started = clientOperationId === undefined ? {} : { clientOperationId };
    // The run's model is kept with it: a run parked in a tool round resumes with it after a restart.
    const model = { provider: plan.provider.id, modelId: plan.modelId };
    const { thinkingLevel } = plan;
    const bodies: EntryBody[] = [
      { kind: 'operation_started', operationId, ...started, model, thinkingLevel },
      ...messages.map(({ message, queueItemId }): EntryBody => {
        const delivered = queueItemId === undefined ? {} : { queueItemId };
        return { kind: 'message', message, operationId, ...delivered };
      }),
    ];
    try {
      await this.#parts.writer.appendAll(bodies, 'synced', eventDeliveryContext(context));
    } catch (error) {
      // `running` already showed this id: whoever holds it hears the run failed; nobody else ever will.
      this.#active = null;
      if (clientOperationId !== undefined) this.#clientOperations.delete(clientOperationId);
      const outcome: RunOutcome = {
        outcome: 'failed',
        error: `the prompt could not be recorded: ${errorMessage(error)}`,
      };
      run.settled.resolve(outcome);
      if (error instanceof SessionFileUnwritable)
        return err({ code: 'session_file_unwritable', message: error.message });
      this.#outcomes.set(operationId, outcome);
      throw new Error(outcome.error ?? 'the prompt could not be recorded', { cause: error });
    }
    void this.#execute(run, plan, links);
    return ok(undefined);
  }

  async requestAbort(operationId: string, context: Context): Promise<Result<void, AbortRejection>> {
    const run = this.#active;
    if (run === null || run.operationId !== operationId || run.phase === 'settling') {
      return this.#outcomes.has(operationId) || run?.operationId === operationId
        ? err({ code: 'already_settled', message: `Operation ${operationId} has already settled` })
        : err({ code: 'unknown_operation', message: `No operation ${operationId} in this session` });
    }
    await cancelRun(this.#lane, run, context);
    return ok(undefined);
  }

  settled(operationId: string): Promise<RunOutcome> {
    const outcome = this.#outcomes.get(operationId);
    if (outcome !== undefined) return Promise.resolve(outcome);
    if (this.#active?.operationId === operationId) return this.#active.settled.promise;
    return Promise.reject(new Error(`No operation ${operationId} in this session`));
  }

  /** For close: no new runs; the running one is stopped in memory and writes nothing more. */
  stop(): void {
    this.#closing = true;
    this.#active?.controller.abort(new Error('the harness is closing'));
  }

  async #execute(
    run: ActiveRun,
    plan: RunPlan,
    links: readonly TelemetryContext[],
    resume?: ResumePoint,
  ): Promise<void> {
    const { outcome, eventContext } = await executeRun(this.#lane, run, plan, links, resume);
    await this.#finish(run, Promise.resolve(outcome), eventContext);
  }

  /** The run settled with `settling`'s outcome: the lane is free, its waiters and listeners hear it, the queue goes on. */
  async #finish(run: ActiveRun, settling: Promise<RunOutcome>, eventContext = BACKGROUND_CONTEXT): Promise<void> {
    const outcome = await settling;
    this.#outcomes.set(run.operationId, outcome);
    this.#active = null;
    run.settled.resolve(outcome);
    this.#parts.events.emit({ type: 'run_settled', operationId: run.operationId, outcome }, eventContext);
    this.#drain();
  }
}
