import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { AgentTool } from '@pi/plugin-api';
import { CORE_TOOL_NAMES, withNotice, type BashDetails, type ToolFailureDetails } from '@pi/tools-core';
import { OutputTail, formatBytes, runCommand, type CommandEnd, type CommandOutput } from '@pi/shell-command';
import { failureResult, ioFailure, toolFailure, type ToolFailure } from './tool-failure';
import { TOOL_LIMITS } from './tool-limits';

const bashParameters = z.object({
  command: z.string().min(1).describe('The bash command line to run'),
  timeout: z
    .number()
    .positive()
    .max(TOOL_LIMITS.bashMaxTimeoutSeconds)
    .optional()
    .describe(`Seconds before the command is killed (default ${TOOL_LIMITS.bashDefaultTimeoutSeconds})`),
});

export type BashArguments = z.infer<typeof bashParameters>;

/** Bounds of the `bash` tool; tests shorten the kill grace. */
export interface BashToolOptions {
  readonly killGraceMs?: number;
}

/** `bash`: a command line in the working directory, with a timeout, a capped output and nothing left running. */
export function bashTool(
  cwd: string,
  options: BashToolOptions = {},
): AgentTool<BashArguments, BashDetails | ToolFailureDetails> {
  return {
    name: CORE_TOOL_NAMES.bash,
    label: 'Bash',
    description: [
      'Run a bash command line in the working directory and return its output (stdout and stderr together) and',
      `exit code. Stdin is closed: nothing can prompt. It is killed after timeout seconds (default`,
      `${TOOL_LIMITS.bashDefaultTimeoutSeconds}) with everything it started; processes it leaves running in the`,
      `background are ended when it exits. Only the last ${TOOL_LIMITS.bashMaxOutputLines} lines or`,
      `${TOOL_LIMITS.bashMaxOutputBytes / 1024} KiB of output are kept; a notice says when output was cut.`,
      'Prefer read, ls, find and grep for looking at files.',
    ].join(' '),
    executionMode: 'sequential',
    parameters: bashParameters,
    async preflight() {
      const unusable = await unusableDirectory(cwd);
      return unusable === null ? null : failureResult(unusable);
    },
    async execute(args, context) {
      const unusable = await unusableDirectory(cwd);
      if (unusable !== null) return failureResult(unusable);
      const tail = new OutputTail(TOOL_LIMITS.bashMaxOutputBytes, TOOL_LIMITS.bashMaxOutputLines);
      const timeoutSeconds = args.timeout ?? TOOL_LIMITS.bashDefaultTimeoutSeconds;
      const ran = await runCommand({
        command: args.command,
        cwd,
        timeoutMs: timeoutSeconds * 1000,
        killGraceMs: options.killGraceMs ?? TOOL_LIMITS.bashKillGraceMs,
        signal: context.abortSignal,
        onOutput: (chunk) => tail.push(chunk),
      });
      if (ran.isErr()) return failureResult(toolFailure(ran.error.code, ran.error.message));
      const end = ran.value;
      const output = tail.output();
      const notice = bashNotice(end, output, timeoutSeconds);
      const details: BashDetails = {
        command: args.command,
        exitCode: end.exitCode,
        signal: end.signal,
        timedOut: end.timedOut,
        aborted: end.aborted,
        truncated: output.truncated,
        notice,
      };
      const failed = end.exitCode !== 0 || end.timedOut || end.aborted;
      return {
        content: [{ type: 'text', text: withNotice(output.text === '' ? '(no output)' : output.text, notice) }],
        details,
        ...(failed ? { isError: true } : {}),
      };
    },
  };
}

/** Why a command cannot run in `cwd` (it is gone, or not a directory), or null when it can. */
async function unusableDirectory(cwd: string): Promise<ToolFailure | null> {
  try {
    if ((await stat(cwd)).isDirectory()) return null;
    throw Object.assign(new Error(), { code: 'ENOTDIR' });
  } catch (error) {
    return ioFailure('use the working directory', cwd, error);
  }
}

/** One bracketed line saying what the model cannot see in the output: a cut, and how the command ended. */
function bashNotice(end: CommandEnd, output: CommandOutput, timeoutSeconds: number): string | null {
  const parts: string[] = [];
  if (output.truncated) {
    const shown = output.text === '' ? 0 : output.text.split('\n').length;
    parts.push(`Output cut: showing the last ${shown} lines of ${formatBytes(output.totalBytes)}.`);
  }
  if (end.timedOut)
    parts.push(`Timed out after ${timeoutSeconds} s; the command and everything it started were killed.`);
  else if (end.aborted) parts.push('Aborted; the command and everything it started were killed.');
  else if (end.exitCode === null) parts.push(`Killed by ${end.signal ?? 'a signal'}.`);
  else if (end.exitCode !== 0) parts.push(`Exit code ${end.exitCode}.`);
  return parts.length === 0 ? null : `[${parts.join(' ')}]`;
}
