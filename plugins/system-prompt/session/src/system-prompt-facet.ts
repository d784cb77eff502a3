import { homedir } from 'node:os';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { z, type CodingAgentSessionPluginContext, type SessionFacet } from '@pi/plugin-api';
import { EMPTY_SYSTEM_PROMPT_STATUS, SystemPrompt, type PromptFile, type SystemPromptStatus } from '@pi/system-prompt';
import { composeSystemPrompt, type PromptEnvironment } from './compose-prompt';
import type { PromptTool } from './default-prompt';
import { readPromptFiles, type LoadedPromptFile, type PromptFiles } from './prompt-files';

/** The setting that turns context files off (`"systemPrompt": { "contextFiles": false }` in settings.json). */
export const CONTEXT_FILES_SETTING = 'systemPrompt.contextFiles';

export interface SystemPromptFacetOptions {
  /** The clock the prompt's date comes from (read once, when the session starts). */
  readonly now?: () => Date;
  readonly homeDir?: string;
  readonly platform?: string;
}

/**
 * The session facet of @pi/system-prompt: reads the prompt and context files when the session starts (and on
 * `reload` or a change of the setting), sets every model request's system prompt through `before_model_request`,
 * and serves `SystemPrompt` so presentations can show what the model reads.
 */
export function createSystemPromptFacet(options: SystemPromptFacetOptions = {}): SessionFacet {
  return (context) => setUpSystemPrompt(context, options);
}

async function setUpSystemPrompt(
  context: CodingAgentSessionPluginContext,
  options: SystemPromptFacetOptions,
): Promise<void> {
  const contextFiles = context.settings.declare(CONTEXT_FILES_SETTING, {
    schema: z.boolean(),
    default: true,
    description: 'Whether the model reads the AGENTS.md (or CLAUDE.md) context files',
  });
  const environment: PromptEnvironment = {
    cwd: context.paths.cwd,
    platform: options.platform ?? process.platform,
    date: localDate((options.now ?? (() => new Date()))()),
  };
  const status = context.remoteState<SystemPromptStatus>(EMPTY_SYSTEM_PROMPT_STATUS);
  let files: PromptFiles = { contextFiles: [], customPrompt: null, appendedPrompt: null, warnings: [] };

  const read = async (): Promise<void> => {
    const contextFilesEnabled = contextFiles.value;
    files = await readPromptFiles({
      configDir: context.paths.configDir,
      cwd: context.paths.cwd,
      homeDir: options.homeDir ?? homedir(),
      contextFiles: contextFilesEnabled,
    });
    status.set(statusOf(files, contextFilesEnabled), BACKGROUND_CONTEXT);
  };
  // One read at a time, in call order, so the last reload's files are the ones that stay.
  let reading = Promise.resolve();
  const load = (): Promise<void> => (reading = reading.then(read));
  const offeredTools = (names: readonly string[]): PromptTool[] => {
    const tools = context.tools.current();
    return names.flatMap((name) => {
      const tool = tools.get(name);
      return tool === undefined ? [] : [{ name, description: tool.description }];
    });
  };

  await load();
  context.provide(SystemPrompt, {
    status,
    async text() {
      return composeSystemPrompt(files, offeredTools([...context.tools.current().keys()]), environment);
    },
    reload: load,
  });
  context.hook('beforeModelRequest', (request) => {
    const own = composeSystemPrompt(files, offeredTools(request.tools), environment);
    // A plugin listed earlier may have set instructions of its own: they follow pi's.
    return { systemPrompt: request.systemPrompt === '' ? own : `${own}\n\n${request.systemPrompt}` };
  });
  contextFiles.onChange(() => void load());
}

function statusOf(files: PromptFiles, contextFilesEnabled: boolean): SystemPromptStatus {
  const shown = (file: LoadedPromptFile): PromptFile => ({ path: file.path, display: file.display, chars: file.chars });
  return {
    loaded: true,
    contextFilesEnabled,
    contextFiles: files.contextFiles.map(shown),
    customPrompt: files.customPrompt === null ? null : shown(files.customPrompt),
    appendedPrompt: files.appendedPrompt === null ? null : shown(files.appendedPrompt),
    warnings: [...files.warnings],
  };
}

function localDate(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
