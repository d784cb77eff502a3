import {
  BACKGROUND_CONTEXT,
  withAbortSignal,
  type CodingAgentTuiPluginContext,
  type CompletionItem,
  type CompletionSource,
} from '@pi/plugin-api';
import { PROJECT_FILE_LIMITS, ProjectFiles, type ProjectFile } from '@pi/tools-core';

/** How many paths the `@` menu asks the session for. */
export const FILE_COMPLETION_LIMIT = 50;

/** Quiet time after a keystroke before the session is asked: one question per burst of typing. */
export const FILE_COMPLETION_DEBOUNCE_MS = 60;

/**
 * `@` completes the session's files (`ProjectFiles.search`: fuzzy, `.gitignore` honoured) into the prompt as text,
 * `@src/app.ts `, as pi's editor does; the model reads the file with its tools when it needs it. A directory is
 * inserted as `@src/` so typing (or the menu) goes on inside it; a path with whitespace is quoted, `@"my notes.md" `.
 */
export function fileCompletionSource(context: CodingAgentTuiPluginContext): CompletionSource {
  return {
    trigger: '@',
    debounceMs: FILE_COMPLETION_DEBOUNCE_MS,
    async complete(query, signal) {
      if (query.length > PROJECT_FILE_LIMITS.maxQueryLength || query.startsWith('"')) return [];
      const callContext = withAbortSignal(signal, BACKGROUND_CONTEXT);
      const files = await context.use(ProjectFiles);
      const found = await files.search(query, FILE_COMPLETION_LIMIT, callContext);
      return found.matches.map(fileItem);
    },
  };
}

function fileItem(file: ProjectFile): CompletionItem {
  if (file.isDirectory) return { insert: `@${quoted(`${file.path}/`)}` };
  return { insert: `@${quoted(file.path)} ` };
}

function quoted(path: string): string {
  return /\s/u.test(path) ? `"${path}"` : path;
}
