/** The names the coding tools are registered under, which the model calls and renderers are keyed by. */
export const CORE_TOOL_NAMES = {
  read: 'read',
  write: 'write',
  edit: 'edit',
  ls: 'ls',
  find: 'find',
  grep: 'grep',
  bash: 'bash',
} as const;

export type CoreToolName = (typeof CORE_TOOL_NAMES)[keyof typeof CORE_TOOL_NAMES];
