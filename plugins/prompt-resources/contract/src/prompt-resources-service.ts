import { z } from 'zod';
import { defineRemoteService, type Context, type RemoteState } from '@pi/plugin-api';

/** Where a skill or template was found: the user's config directory, the project, or an installed package. */
export type ResourceSource = 'user' | 'project' | 'package';

/** A `SKILL.md` the model is told about and the user can load with `/skill:name`. */
export type SkillInfo = {
  /** From its frontmatter: lowercase letters, digits and single hyphens, at most 64 characters. */
  name: string;
  /** From its frontmatter: what it does and when to use it (the model chooses by this). */
  description: string;
  /** The absolute path of its `SKILL.md` in the session's file system (the model reads it there). */
  path: string;
  /** How to show the path: relative to the session's directory, `~/…` under the home directory, else absolute. */
  display: string;
  source: ResourceSource;
  /** False when its frontmatter says `disable-model-invocation: true`: only `/skill:name` loads it. */
  modelInvocable: boolean;
};

/** A markdown file that expands as `/name args`. */
export type PromptTemplateInfo = {
  /** Its file name without `.md`: the slash command. */
  name: string;
  /** Its frontmatter's `description`, else its first non-empty line. */
  description: string;
  /** Its frontmatter's `argument-hint` (`<file> [focus]`), shown in the `/` menu; '' when it has none. */
  argumentHint: string;
  /** Whether its text has argument placeholders (`$1`, `$@`, …): the `/` menu then waits for them. */
  takesArguments: boolean;
  path: string;
  display: string;
  source: ResourceSource;
};

/** What the session found, as a type alias so it is assignable to JSON types. */
export type PromptResourcesStatus = {
  /** False until the session read the directories once. */
  loaded: boolean;
  skills: SkillInfo[];
  templates: PromptTemplateInfo[];
  /** Files skipped or names overridden, each in one sentence naming the file. */
  problems: string[];
};

/** The text a `/skill:name` or `/template` line becomes, and which resource it came from. */
export type ExpandedPrompt = {
  text: string;
  kind: 'skill' | 'template';
  name: string;
};

/**
 * The session's skills and prompt templates: read from the user's config directory, the project and installed
 * packages when the plugin's facets set up (so a rebuild reads them again), listed for presentations and the CLI,
 * and expanded here so every client turns `/name args` into the same text.
 */
export interface PromptResourcesService {
  readonly status: RemoteState<PromptResourcesStatus>;
  /**
   * The prompt `line` (`/skill:name args` or `/template args`) stands for, or null when it names no skill or
   * template of this session (send such a line as it is).
   */
  expand(request: { line: string }, context: Context): Promise<ExpandedPrompt | null>;
}

/** A skill or template file larger than this is skipped (a problem says so): it would crowd out the work. */
export const MAX_RESOURCE_FILE_BYTES = 100 * 1024;
/** The longest problem sentence the status carries; the session cuts longer ones. */
export const MAX_RESOURCE_PROBLEM_LENGTH = 1024;
export const MAX_SKILL_NAME_LENGTH = 64;
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;
/** The longest line `expand` takes (a prompt with a pasted file as its argument fits). */
export const MAX_EXPAND_LINE_LENGTH = 1_000_000;

export const EMPTY_PROMPT_RESOURCES_STATUS: PromptResourcesStatus = Object.freeze({
  loaded: false,
  skills: [],
  templates: [],
  problems: [],
});

const pathText = z.string().min(1).max(4096);
const sourceSchema = z.enum(['user', 'project', 'package']);

export const skillInfoSchema: z.ZodType<SkillInfo> = z.strictObject({
  name: z.string().min(1).max(MAX_SKILL_NAME_LENGTH),
  description: z.string().min(1).max(MAX_SKILL_DESCRIPTION_LENGTH),
  path: pathText,
  display: pathText,
  source: sourceSchema,
  modelInvocable: z.boolean(),
});

export const promptTemplateInfoSchema: z.ZodType<PromptTemplateInfo> = z.strictObject({
  name: z.string().min(1).max(255),
  description: z.string().max(MAX_SKILL_DESCRIPTION_LENGTH),
  argumentHint: z.string().max(255),
  takesArguments: z.boolean(),
  path: pathText,
  display: pathText,
  source: sourceSchema,
});

export const promptResourcesStatusSchema: z.ZodType<PromptResourcesStatus> = z.strictObject({
  loaded: z.boolean(),
  skills: z.array(skillInfoSchema).max(1024),
  templates: z.array(promptTemplateInfoSchema).max(1024),
  problems: z.array(z.string().max(MAX_RESOURCE_PROBLEM_LENGTH)).max(1024),
});

export const expandRequestSchema = z.strictObject({ line: z.string().min(1).max(MAX_EXPAND_LINE_LENGTH) });

export const expandedPromptSchema: z.ZodType<ExpandedPrompt> = z.strictObject({
  text: z.string(),
  kind: z.enum(['skill', 'template']),
  name: z.string().min(1),
});

export const PromptResources = defineRemoteService<PromptResourcesService>('prompt-resources', {
  methods: { expand: { args: [expandRequestSchema], result: expandedPromptSchema.nullable() } },
  state: { status: promptResourcesStatusSchema },
  events: {},
});
