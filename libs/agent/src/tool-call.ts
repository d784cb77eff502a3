import { withContextValue, withTelemetryContext, type Context } from '@pi/context';
import { z } from 'zod';
import type { HarnessHooks } from './harness-hooks';
import { errorMessage } from './error-text';
import { toolResultSchema } from './message-schema';
import type { ToolCallInfo, ToolCallPart, ToolResultMessage } from '@pi/agent-contract';
import { TOOL_CALL_STEP, type AnyAgentTool } from '@pi/agent-contract';

export interface ToolCallRun {
  operationId: string;
  call: ToolCallPart;
  /** The tool offered to the model this turn under the call's name, if any. */
  tool: AnyAgentTool | undefined;
  hooks: HarnessHooks;
  /** The client whose send started the run, if known: the tool reads it (with the call) from `TOOL_CALL_STEP`. */
  originator: string | null;
}

/**
 * Runs one tool call to a result message; never rejects. Every way a call can go wrong — unknown tool,
 * invalid arguments, a blocking or failing hook, a throwing tool, a non-JSON result — becomes an error
 * result the model can read, so one bad call never ends the run.
 */
export function runToolCall(run: ToolCallRun, context: Context): Promise<ToolResultMessage> {
  const { call } = run;
  return context.telemetryContext.startSpan(
    { name: 'agent.tool', attributes: { 'pi.tool.name': call.name, 'pi.tool.call_id': call.id } },
    async (span) => {
      const step = { operationId: run.operationId, toolCallId: call.id, originator: run.originator };
      const spanContext = withContextValue(TOOL_CALL_STEP, step, withTelemetryContext(span, context));
      let result: ToolResultMessage;
      try {
        result = await resolveToolCall(run, spanContext);
      } catch (error) {
        // Reached only through a tool's own bug outside execute (a throwing refinement, a cyclic result).
        result = errorResult(call, `Tool ${call.name} failed: ${errorMessage(error)}`);
      }
      // Every result, the harness's own error results included, passes the `after_tool` hooks before it is recorded.
      return run.hooks.rewriteResult(callInfo(run), result, spanContext);
    },
  );
}

async function resolveToolCall(
  { operationId, call, tool, hooks }: ToolCallRun,
  context: Context,
): Promise<ToolResultMessage> {
  if (tool === undefined) return errorResult(call, `Unknown tool "${call.name}"`);
  const args = await tool.parameters.safeParseAsync(call.arguments);
  if (!args.success) return errorResult(call, `Invalid arguments for ${call.name}:\n${z.prettifyError(args.error)}`);
  const blocked = await hooks.blockReason(callInfo({ operationId, call }), context);
  if (blocked !== null) return errorResult(call, blocked);
  if (context.abortSignal?.aborted === true) return errorResult(call, 'Tool call skipped: the run was aborted');
  let raw: unknown;
  try {
    raw = await tool.execute(args.data, context);
  } catch (error) {
    return errorResult(call, `Tool ${call.name} failed: ${errorMessage(error)}`);
  }
  const result = toolResultSchema.safeParse(raw);
  if (!result.success)
    return errorResult(call, `Tool ${call.name} returned an invalid result:\n${z.prettifyError(result.error)}`);
  return {
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: result.data.content,
    details: result.data.details,
    isError: result.data.isError ?? false,
  };
}

function callInfo({ operationId, call }: Pick<ToolCallRun, 'operationId' | 'call'>): ToolCallInfo {
  return { operationId, toolCallId: call.id, toolName: call.name, arguments: call.arguments };
}

export function errorResult(call: ToolCallPart, text: string): ToolResultMessage {
  return {
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: 'text', text }],
    details: null,
    isError: true,
  };
}
