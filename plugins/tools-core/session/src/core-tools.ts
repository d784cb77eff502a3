import type { AnyAgentTool } from '@pi/plugin-api';
import { bashTool, type BashToolOptions } from './bash-tool';
import { editTool } from './edit-tool';
import { findTool } from './find-tool';
import { grepTool } from './grep-tool';
import { lsTool } from './ls-tool';
import { readTool } from './read-tool';
import { writeTool } from './write-tool';

/** The seven coding tools, bound to the session's working directory. */
export function coreTools(cwd: string, options: BashToolOptions = {}): AnyAgentTool[] {
  return [
    readTool(cwd),
    writeTool(cwd),
    editTool(cwd),
    lsTool(cwd),
    findTool(cwd),
    grepTool(cwd),
    bashTool(cwd, options),
  ];
}
