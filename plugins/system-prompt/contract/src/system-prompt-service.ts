import { z } from 'zod';
import { defineRemoteService, type Context, type RemoteState } from '@pi/plugin-api';

/** A file whose text the system prompt carries. */
export type PromptFile = {
  /** Its absolute path in the session's file system. */
  path: string;
  /** How to show it: relative to the session's directory when inside it, `~/…` under the home directory. */
  display: string;
  /** Its length in characters. */
  chars: number;
};

/**
 * What the session's system prompt is made of, as a type alias so it is assignable to JSON types. Presentations
 * show it (which context files the model reads), nothing else is needed to understand what the model was told.
 */
export type SystemPromptStatus = {
  /** False until the session read the files once; the other fields then hold their empty defaults. */
  loaded: boolean;
  /** Whether context files are read at all (setting `systemPrompt.contextFiles`, true by default). */
  contextFilesEnabled: boolean;
  /**
   * `AGENTS.md` (or `CLAUDE.md` where a directory has no `AGENTS.md`) of the user's config directory, then of every
   * directory from the top of the file system down to the session's directory: the order they are sent in.
   */
  contextFiles: PromptFile[];
  /** The `SYSTEM.md` that replaces the default prompt (the project's `.pi/` first, then the config directory). */
  customPrompt: PromptFile | null;
  /** The `APPEND_SYSTEM.md` added after the prompt (the project's `.pi/` first, then the config directory). */
  appendedPrompt: PromptFile | null;
  /** Files found and not used (unreadable, too large), each in one sentence naming the file. */
  warnings: string[];
};

/**
 * The session's system prompt: the default one (who the model is, the tools it has, the working directory,
 * platform and date) or the user's `SYSTEM.md`, then `APPEND_SYSTEM.md`, then the project's context files.
 */
export interface SystemPromptService {
  readonly status: RemoteState<SystemPromptStatus>;
  /** The system prompt the next model request would carry, with the tools as they are offered now. */
  text(context: Context): Promise<string>;
  /** Reads the files again (an edited `AGENTS.md` applies from the next model request). */
  reload(context: Context): Promise<void>;
}

/** A context or prompt file larger than this is not sent (a warning says so): it would crowd out the work. */
export const MAX_PROMPT_FILE_BYTES = 100 * 1024;
/** The longest warning the status carries; the session cuts longer ones. */
export const MAX_PROMPT_WARNING_LENGTH = 1024;

export const EMPTY_SYSTEM_PROMPT_STATUS: SystemPromptStatus = Object.freeze({
  loaded: false,
  contextFilesEnabled: true,
  contextFiles: [],
  customPrompt: null,
  appendedPrompt: null,
  warnings: [],
});

const pathText = z.string().min(1).max(4096);

export const promptFileSchema: z.ZodType<PromptFile> = z.strictObject({
  path: pathText,
  display: pathText,
  chars: z.number().int().min(0),
});

export const systemPromptStatusSchema: z.ZodType<SystemPromptStatus> = z.strictObject({
  loaded: z.boolean(),
  contextFilesEnabled: z.boolean(),
  contextFiles: z.array(promptFileSchema).max(256),
  customPrompt: promptFileSchema.nullable(),
  appendedPrompt: promptFileSchema.nullable(),
  warnings: z.array(z.string().max(MAX_PROMPT_WARNING_LENGTH)).max(256),
});

export const SystemPrompt = defineRemoteService<SystemPromptService>('system-prompt', {
  methods: {
    text: { args: [], result: z.string() },
    reload: { args: [], result: z.void() },
  },
  state: { status: systemPromptStatusSchema },
  events: {},
});
