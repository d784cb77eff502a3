import type { AgentToolResult } from '@pi/plugin-api';
import type { ToolFailureCode, ToolFailureDetails } from '@pi/tools-core';

/** Why a tool did nothing, as the model reads it. `path` is relative to the working directory when known. */
export interface ToolFailure {
  readonly code: ToolFailureCode;
  readonly message: string;
  readonly path: string | null;
}

export function toolFailure(code: ToolFailureCode, message: string, path: string | null = null): ToolFailure {
  return { code, message, path };
}

/** The error result of a tool that did nothing: the message for the model, the code for renderers. */
export function failureResult(failure: ToolFailure): AgentToolResult<ToolFailureDetails> {
  return {
    content: [{ type: 'text', text: failure.message }],
    details: { failure: failure.code, path: failure.path },
    isError: true,
  };
}

/** An unexpected file-system error as a failure that names the operation and the errno code, never a stack. */
export function ioFailure(operation: string, path: string, error: unknown): ToolFailure {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return toolFailure('not_found', `${path} does not exist.`, path);
    case 'EISDIR':
      return toolFailure('not_a_file', `${path} is a directory, not a file.`, path);
    case 'ENOTDIR':
      return toolFailure('not_a_directory', `A part of ${path} is a file, not a directory.`, path);
    default:
      return toolFailure('io_error', `Could not ${operation} ${path}: ${code ?? 'unknown error'}.`, path);
  }
}
