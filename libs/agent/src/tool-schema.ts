import { z } from 'zod';
import type { JsonObject } from '@pi/agent-contract';
import type { ToolSchema } from './provider';
import type { AnyAgentTool } from '@pi/agent-contract';

/** Converting a schema walks all of it; a tool object keeps its schema, so convert it once. */
const parametersByTool = new WeakMap<AnyAgentTool, JsonObject>();

/**
 * What the model is told about a tool. The JSON schema describes the INPUT side of the zod schema
 * (what the model must send, before any transform), and parts JSON Schema cannot express become `{}`
 * rather than failing the run. `$schema` is dropped: some providers reject unknown top-level keys.
 */
export function toolSchema(name: string, tool: AnyAgentTool): ToolSchema {
  let parameters = parametersByTool.get(tool);
  if (parameters === undefined) {
    const converted = z.toJSONSchema(tool.parameters, { io: 'input', unrepresentable: 'any' });
    const { $schema: _dialect, ...rest } = converted;
    // toJSONSchema produces plain JSON (strings, numbers, arrays, objects) by construction.
    parameters = rest as JsonObject;
    parametersByTool.set(tool, parameters);
  }
  return { name, description: tool.description, parameters };
}
