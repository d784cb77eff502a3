import type { Context } from '@pi/context';
import type { z } from 'zod';
import type { JsonValue, TextPart } from './messages';

export interface AgentToolResult<Details extends JsonValue = JsonValue> {
  content: TextPart[];
  details: Details;
  isError?: boolean;
}

/**
 * A model-callable tool, as contributed to the tools registry. `parameters` is a zod schema: the model sees
 * its JSON schema, and arguments are validated against it before `execute` runs.
 */
export interface AgentTool<Args = unknown, Details extends JsonValue = JsonValue> {
  name: string;
  label: string;
  description: string;
  /** Sequential tools run one at a time, in call order; parallel tools of one turn may overlap. */
  executionMode: 'sequential' | 'parallel';
  parameters: z.ZodType<Args>;
  execute(args: Args, context: Context): Promise<AgentToolResult<Details>>;
  /**
   * The tool's cheap, deterministic checks of `args` (a path inside the workspace, a text that is in the file):
   * the refusal `execute` would return, having done nothing, or null when the call can go ahead. A wrapper that
   * asks someone before running the tool calls it first, so nobody is asked to allow what cannot happen; `execute`
   * still checks everything itself, as things may change meanwhile. Wrappers keep it by spreading the inner tool.
   */
  preflight?(args: Args, context: Context): Promise<AgentToolResult<Details> | null>;
  /**
   * `'safe'`: running `execute` again for the same call, after the session process died before it returned, does
   * nothing twice that matters (the question tool asks again, on the same view). A run a crash cut short while
   * such a call waited then resumes by running it again; without it the call is answered "interrupted".
   */
  replay?: 'safe';
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAgentTool = AgentTool<any, JsonValue>;
