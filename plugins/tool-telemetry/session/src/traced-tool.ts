import { withTelemetryContext, type AnyAgentTool } from '@pi/plugin-api';
import { TOOL_OUTCOMES, TOOL_SPAN_ATTRIBUTES, toolSpanName } from '@pi/tool-telemetry';

/** Carries a tool's own exception past the span, which records only this generic one. */
class ToolThrew extends Error {
  constructor(
    tool: string,
    readonly original: unknown,
  ) {
    super(`the tool ${tool} threw`);
  }
}

/**
 * The wrapper contribution's value: the same tool, whose every execution is one span `tool.<name>` with the
 * tool's name and outcome. The inner tool runs under the span (what it starts is its child). A throw is recorded
 * as a generic exception — its message may quote arguments — and the tool's own error is rethrown unchanged.
 */
export function tracedTool(name: string, inner: AnyAgentTool): AnyAgentTool {
  return {
    ...inner,
    async execute(args, context) {
      try {
        return await context.telemetryContext.startSpan(
          { name: toolSpanName(name), attributes: { [TOOL_SPAN_ATTRIBUTES.name]: name } },
          async (span) => {
            try {
              const result = await inner.execute(args, withTelemetryContext(span, context));
              span.setAttribute(
                TOOL_SPAN_ATTRIBUTES.outcome,
                result.isError === true ? TOOL_OUTCOMES.error : TOOL_OUTCOMES.ok,
              );
              return result;
            } catch (error) {
              span.setAttribute(TOOL_SPAN_ATTRIBUTES.outcome, TOOL_OUTCOMES.threw);
              throw new ToolThrew(name, error);
            }
          },
        );
      } catch (error) {
        throw error instanceof ToolThrew ? error.original : error;
      }
    },
  };
}
