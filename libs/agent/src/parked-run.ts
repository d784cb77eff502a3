import type { RunOutcome, RunSettings, SessionEntry, ToolCallPart } from '@pi/agent-contract';
import type { ResumePoint, RunPlan } from './agent-run';
import type { HarnessOptions } from './harness-types';
import { interruptedLine, settledOutcomes } from './interrupted-operations';
import { DEFAULT_MAX_TURNS } from './max-turns';
import { resolveRunModel } from './run-model';

/**
 * A run the file shows cut short in a tool round: started, not settled, not cancelled, its last model answer made
 * tool calls and nothing but their results followed. That is where a run parks while a tool waits on someone (the
 * question tool on its durable view); whether it resumes is decided once the tools are known (`resumesParked`).
 */
export interface ParkedRun {
  readonly operationId: string;
  /** The calls of its last model answer, in call order. */
  readonly calls: readonly ToolCallPart[];
  /** Of those, the ones the file has no result for: what the run was waiting on when it stopped. */
  readonly pending: readonly ToolCallPart[];
  /** How many model answers it recorded: the turns it used. */
  readonly turns: number;
  /** The model and thinking level it started with; null in files written before runs kept them. */
  readonly settings: RunSettings | null;
}

/** The parked run the file leaves, or null. Only the latest run can be one: a start settles every other. */
export function findParkedRun(entries: readonly SessionEntry[]): ParkedRun | null {
  const started = entries.findLast((entry) => entry.kind === 'operation_started');
  if (started?.kind !== 'operation_started' || settledOutcomes(entries).has(started.operationId)) return null;
  const { operationId } = started;
  const own = entries.filter((entry) => 'operationId' in entry && entry.operationId === operationId);
  if (own.some((entry) => entry.kind === 'cancel_requested')) return null;
  const messages = own.flatMap((entry) => (entry.kind === 'message' ? [entry.message] : []));
  const lastAnswer = messages.findLastIndex((message) => message.role === 'assistant');
  const answer = messages[lastAnswer];
  if (answer?.role !== 'assistant') return null;
  const calls = answer.content.filter((part): part is ToolCallPart => part.type === 'tool_call');
  const after = messages.slice(lastAnswer + 1);
  // A steer delivered after the results means the next model request was under way: not a parked tool round.
  if (calls.length === 0 || after.some((message) => message.role !== 'tool')) return null;
  const answered = new Set(after.map((message) => (message.role === 'tool' ? message.toolCallId : '')));
  const turns = messages.filter((message) => message.role === 'assistant').length;
  const { model, thinkingLevel } = started;
  const settings = model === undefined ? null : { model, thinkingLevel: thinkingLevel ?? 'off' };
  return { operationId, calls, pending: calls.filter((call) => !answered.has(call.id)), turns, settings };
}

/** What becomes of a parked run, and the line `recovery` says about it. */
export type ParkedDecision =
  | { readonly kind: 'resume'; readonly plan: RunPlan; readonly from: ResumePoint; readonly line: string }
  | { readonly kind: 'settle'; readonly outcome: RunOutcome; readonly line: string };

/**
 * Decides the parked run once the tools are known. It resumes when its round called a tool that may run again
 * (`replay: 'safe'`), every call still owed a result is to such a tool, it has a model and no cancel was recorded.
 * Its model is its own (kept in `operation_started`) while a provider still offers it; else, said in the line, the
 * one selected now (as for files that did not keep it). Otherwise it settles as any run a crash cut short: a round
 * of other tools (a `bash` cut short) could do its work twice if run again.
 */
export function decideParked(
  parked: ParkedRun,
  cancelled: boolean,
  options: Pick<HarnessOptions, 'tools' | 'providers' | 'settings' | 'maxTurns'>,
): ParkedDecision {
  const { operationId, pending, turns } = parked;
  const tools = options.tools();
  const replayable = (call: ToolCallPart) => tools.get(call.name)?.replay === 'safe';
  const { settings, model, instead } = resumeModel(parked, options);
  if (!cancelled && model.isOk() && parked.calls.some(replayable) && pending.every(replayable)) {
    const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
    const plan = { operationId, ...model.value, thinkingLevel: settings.thinkingLevel, maxTurns, originator: null };
    const waiting = pending.map((call) => call.name).join(', ') || 'none, its results were in';
    const line = `operation ${operationId} stopped in a tool round (waiting on: ${waiting}); resumed it${instead}`;
    return { kind: 'resume', plan, from: { pending, turns }, line };
  }
  const outcome: RunOutcome = { outcome: cancelled ? 'aborted' : 'failed', error: 'interrupted' };
  return { kind: 'settle', outcome, line: interruptedLine(operationId, outcome) };
}

/**
 * The model a parked run resumes with: its own while it is still offered, else the one selected now; `instead`
 * says which was used and why (empty when the run's own was).
 */
function resumeModel(parked: ParkedRun, options: Pick<HarnessOptions, 'providers' | 'settings'>) {
  const providers = options.providers();
  const own = parked.settings;
  if (own !== null) {
    const model = resolveRunModel(own, providers);
    if (model.isOk()) return { settings: own, model, instead: '' };
    const current = options.settings();
    const why = `its own, ${modelName(own.model)}, cannot be used: ${model.error.message}`;
    const instead = ` with the selected model ${modelName(current.model)} (${why})`;
    return { settings: current, model: resolveRunModel(current, providers), instead };
  }
  const current = options.settings();
  return { settings: current, model: resolveRunModel(current, providers), instead: '' };
}

function modelName(model: RunSettings['model']): string {
  return model === null ? 'none' : `${model.provider}/${model.modelId}`;
}
