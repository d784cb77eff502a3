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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyAgentTool = AgentTool<any, JsonValue>;
