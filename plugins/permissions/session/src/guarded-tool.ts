import type { AnyAgentTool } from '@pi/plugin-api';
import { deniedResult } from './denied-result';
import type { PermissionGate } from './permission-gate';

/**
 * The wrapper contribution's value: the same tool (name, schema, mode, preflight) whose execute runs the tool's
 * own preflight, then asks the gate. A call the tool refuses anyway (a path outside the workspace) returns that
 * refusal without anyone being asked to allow it; a denied call returns the denial. Either way the inner tool's
 * execute never runs.
 */
export function guardedTool(name: string, inner: AnyAgentTool, gate: PermissionGate): AnyAgentTool {
  return {
    ...inner,
    async execute(args, context) {
      const refusal = (await inner.preflight?.(args, context)) ?? null;
      if (refusal !== null) return refusal;
      const verdict = await gate.check(name, args, context);
      if (!verdict.allowed) return deniedResult(name, verdict.code);
      return inner.execute(args, context);
    },
  };
}
