import { defineSharedContextKey } from '@pi/context';

/** Which call of which run a tool's `execute` serves: the harness puts it on every tool call's context. */
export interface ToolCallStep {
  readonly operationId: string;
  readonly toolCallId: string;
  /**
   * The client (its connection's id) whose prompt, steer or follow-up started the run; null when none is known (a
   * run started by no client, or resumed after a restart, when that connection is gone).
   */
  readonly originator: string | null;
}

/** Shared by name, so a plugin that bundles its own copy of the contract reads the same value. */
export const TOOL_CALL_STEP = defineSharedContextKey<ToolCallStep | undefined>('pi.tool-call-step', undefined);
