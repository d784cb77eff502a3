import type { AnyAgentTool } from '@pi/plugin-api';
import { deniedResult } from './denied-result';
import type { PermissionGate } from './permission-gate';

/**
 * The wrapper contribution's value: the same tool (name, schema, mode) whose execute asks the gate first; a denied
 * call returns the denial and the inner tool never runs.
 */
export function guardedTool(name: string, inner: AnyAgentTool, gate: PermissionGate): AnyAgentTool {
  return {
    ...inner,
    async execute(args, context) {
      const verdict = await gate.check(name, args, context);
      if (!verdict.allowed) return deniedResult(name, verdict.code);
      return inner.execute(args, context);
    },
  };
}
