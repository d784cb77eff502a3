import { defaultSystemPrompt, type PromptTool } from './default-prompt';
import type { LoadedPromptFile, PromptFiles } from './prompt-files';

/** What the prompt states about where and when the session runs. */
export interface PromptEnvironment {
  readonly cwd: string;
  readonly platform: string;
  /** The session's start date as YYYY-MM-DD (fixed for the session, so the prompt stays cacheable). */
  readonly date: string;
}

/**
 * The whole system prompt: the user's `SYSTEM.md` or pi's default, then `APPEND_SYSTEM.md`, then the context files
 * in their order (each under its path), then the working directory, platform and date.
 */
export function composeSystemPrompt(
  files: PromptFiles,
  tools: readonly PromptTool[],
  environment: PromptEnvironment,
): string {
  const sections = [files.customPrompt?.text.trim() ?? defaultSystemPrompt(tools)];
  if (files.appendedPrompt !== null) sections.push(files.appendedPrompt.text.trim());
  if (files.contextFiles.length > 0) {
    sections.push(
      [
        '# Project context',
        '',
        [
          "The user's instructions for this project and their own conventions follow, from the most general to the",
          'most specific; where they conflict with the guidelines above, follow them.',
        ].join(' '),
        ...files.contextFiles.map(contextSection),
      ].join('\n'),
    );
  }
  sections.push(
    [`Working directory: ${environment.cwd}`, `Platform: ${environment.platform}`, `Date: ${environment.date}`].join(
      '\n',
    ),
  );
  return sections.filter((section) => section !== '').join('\n\n');
}

function contextSection(file: LoadedPromptFile): string {
  return `\n## ${file.path}\n\n${file.text.trim()}`;
}
