import type { Context } from '@pi/context';
import type { HarnessHooks } from './harness-hooks';
import type { HarnessEvent, RunOutcome, SessionTree } from '@pi/agent-contract';
import type { AgentMessage, QueueItem, ToolCallPart } from '@pi/agent-contract';
import { streamTurn } from './model-turn';
import type { EntryProjection } from './context-window';
import { RequestContext } from './request-context';
import type { ModelProvider, ThinkingLevel } from './provider';
import type { SessionWriter } from './session-writer';
import { deliverSteers } from './steer-delivery';
import type { AnyAgentTool } from '@pi/agent-contract';
import { runToolCall } from './tool-call';
import { runToolRound } from './tool-round';
import { toolSchema } from './tool-schema';

/** Everything a run decided at acceptance; nothing here is re-read while it runs. */
export interface RunPlan {
  operationId: string;
  provider: ModelProvider;
  modelId: string;
  thinkingLevel: ThinkingLevel;
  maxTurns: number;
  /** The client whose send started the run (a connection id), if known; tools see it in `TOOL_CALL_STEP`. */
  originator: string | null;
}

/** Where a resumed run picks up (see `ParkedRun`): the calls its last round still owes, and the turns it used. */
export interface ResumePoint {
  readonly pending: readonly ToolCallPart[];
  readonly turns: number;
}

export interface RunServices {
  writer: SessionWriter;
  tree: SessionTree;
  /** Read at the start of each turn: the model is offered, and may call, exactly that turn's tools. */
  tools: () => ReadonlyMap<string, AnyAgentTool>;
  hooks: HarnessHooks;
  emit: (event: HarnessEvent) => void;
  /** The context events and entries of this run are delivered with (telemetry only, no signal). */
  eventContext: Context;
  /** The steers waiting for this run's next turn boundary, taken (see `deliverSteers`). */
  takeSteers: () => QueueItem[];
  /** Steers whose delivery could not be written, back to the queue. */
  returnSteers: (items: readonly QueueItem[]) => void;
  /** How long the model may be silent before the run reports that it waits on it. */
  modelWaitNoticeMs: number;
  /** What the model reads of plugins' custom entries. */
  projectEntry?: EntryProjection;
}

/**
 * The turn loop: ask the model, record its answer, run the tool calls it made, deliver the steers that came
 * meanwhile, and go again until it answers without tool calls (and no steer came) or maxTurns is reached. `context` carries the run's own abort signal.
 * Storage failures reject (the caller settles in memory); everything else ends in an outcome.
 */
export async function runTurns(
  plan: RunPlan,
  services: RunServices,
  context: Context,
  resume?: ResumePoint,
): Promise<RunOutcome> {
  const { operationId } = plan;
  const aborted = (): boolean => context.abortSignal?.aborted === true;
  const record = async (message: AgentMessage): Promise<void> => {
    await services.writer.append({ kind: 'message', message, operationId }, 'buffered', services.eventContext);
  };
  const { tree, writer, eventContext } = services;
  const { projectEntry } = services;
  const requestContext = new RequestContext({
    ...plan,
    tree,
    writer,
    eventContext,
    ...(projectEntry && { projectEntry }),
  });
  const toolRound = async (calls: readonly ToolCallPart[], tools: ReadonlyMap<string, AnyAgentTool>) => {
    await runToolRound({
      calls,
      isParallel: (call) => tools.get(call.name)?.executionMode === 'parallel',
      run: (call) => {
        services.emit({
          type: 'tool_started',
          operationId,
          toolCallId: call.id,
          toolName: call.name,
          arguments: call.arguments,
        });
        const { originator } = plan;
        return runToolCall(
          { operationId, call, tool: tools.get(call.name), hooks: services.hooks, originator },
          context,
        );
      },
      record,
    });
  };
  const firstTurn = resume?.turns ?? 0;
  if (resume !== undefined) {
    // A resumed run first finishes the round it was parked in, then goes on as if it had never stopped.
    await toolRound(resume.pending, services.tools());
    if (aborted()) return { outcome: 'aborted', error: null };
    await deliverSteers({ ...services, operationId, hasNextTurn: firstTurn < plan.maxTurns, aborted });
  }
  let overflowCompacted = false;
  for (let turn = firstTurn; turn < plan.maxTurns; turn += 1) {
    if (aborted()) return { outcome: 'aborted', error: null };
    const tools = services.tools();
    const schemas = [...tools].map(([name, tool]) => toolSchema(name, tool));
    // Compaction builds the context (the latest summary and what follows it), then the hooks adjust it.
    const prepared = await requestContext.prepare(schemas, context);
    if (prepared.kind === 'aborted') return { outcome: 'aborted', error: null };
    if (prepared.kind === 'failed') return { outcome: 'failed', error: prepared.error };
    // What `before_model_request` hooks make of the branch: only this request changes, never the tree.
    const { systemPrompt, messages } = await services.hooks.requestParts(
      {
        operationId,
        turn,
        model: { provider: plan.provider.id, modelId: plan.modelId },
        thinkingLevel: plan.thinkingLevel,
        tools: [...tools.keys()],
        systemPrompt: '',
        messages: prepared.messages,
      },
      context,
    );
    const result = await streamTurn(
      {
        provider: plan.provider,
        model: `${plan.provider.id}/${plan.modelId}`,
        request: {
          modelId: plan.modelId,
          ...(systemPrompt === '' ? {} : { systemPrompt }),
          messages,
          tools: schemas,
          thinkingLevel: plan.thinkingLevel,
        },
        onTextDelta: (delta) => services.emit({ type: 'text_delta', operationId, delta }),
        onWaiting: (silentMs) => services.emit({ type: 'model_waiting', operationId, silentMs }),
        waitNoticeMs: services.modelWaitNoticeMs,
      },
      context,
    );
    // A provider that says the request is too long is believed over the estimate: compact and ask again, once.
    if (result.kind === 'failed' && result.overflow && !overflowCompacted && result.partial === null) {
      overflowCompacted = true;
      const compacted = await requestContext.compactAfterOverflow(context);
      if (compacted === 'aborted') return { outcome: 'aborted', error: null };
      if (compacted === 'written') {
        turn -= 1;
        continue;
      }
      return {
        outcome: 'failed',
        error: `compaction_failed: ${result.error}; compacting to make room failed: ${compacted.failed}`,
      };
    }
    if (result.kind !== 'answered') {
      if (result.partial !== null) await record(result.partial);
      return result.kind === 'aborted'
        ? { outcome: 'aborted', error: null }
        : { outcome: 'failed', error: result.error };
    }
    await record(result.message);
    const calls = result.message.content.filter((part): part is ToolCallPart => part.type === 'tool_call');
    const boundary = { ...services, operationId, hasNextTurn: turn + 1 < plan.maxTurns, aborted };
    // An answer ends the run, unless steers came meanwhile: the model hears them first.
    if (calls.length === 0) {
      if ((await deliverSteers(boundary)) === 0) return { outcome: 'completed', error: null };
      continue;
    }
    await toolRound(calls, tools);
    if (aborted()) return { outcome: 'aborted', error: null };
    await deliverSteers(boundary);
  }
  return { outcome: 'completed', error: null };
}
