import { z } from 'zod';
import { defineRemoteService, type Context } from '@pi/plugin-api';

/** A file or directory of the session's working directory: relative to it, `/`-separated. */
export type ProjectFile = { path: string; isDirectory: boolean };

/** What a search found, best first. */
export type ProjectFileSearch = {
  matches: ProjectFile[];
  /** The walk stopped at its bound (entries looked at, time) before it saw the whole tree: a match may be missing. */
  truncated: boolean;
};

/**
 * The session's files for presentations (the TUI's `@` completion): the files are the session's, so a TUI on another
 * machine completes the session's paths, with the session's `.gitignore`.
 */
export interface ProjectFilesService {
  /**
   * At most `limit` files and directories whose path fuzzily matches `query` (case-insensitive), best first: the name
   * starting with the query, then a path segment (or run of segments) starting with it, then the query anywhere in
   * the path, then its characters in order. An empty query gives the shallowest paths. What `.gitignore` files
   * ignore, `.git` and `node_modules` are never walked; symbolic links are listed, never followed, so nothing outside
   * the working directory is ever returned. The walk is bounded (PROJECT_FILE_LIMITS) for huge trees.
   */
  search(query: string, limit: number, context: Context): Promise<ProjectFileSearch>;
}

export const PROJECT_FILE_LIMITS = {
  /** The longest query. */
  maxQueryLength: 256,
  /** The most matches one search returns. */
  maxLimit: 100,
  /** A search looks at this many entries at most, breadth first (shallow files are seen first). */
  maxEntriesWalked: 20_000,
  /** And walks for this long at most. */
  maxWalkMs: 1_000,
} as const;

const projectFileSchema: z.ZodType<ProjectFile> = z.strictObject({
  path: z.string().min(1).max(4096),
  isDirectory: z.boolean(),
});

export const projectFileSearchSchema: z.ZodType<ProjectFileSearch> = z.strictObject({
  matches: z.array(projectFileSchema).max(PROJECT_FILE_LIMITS.maxLimit),
  truncated: z.boolean(),
});

export const ProjectFiles = defineRemoteService<ProjectFilesService>('project-files', {
  methods: {
    search: {
      args: [
        z
          .string()
          .max(PROJECT_FILE_LIMITS.maxQueryLength)
          .refine((query) => !query.includes('\0'), 'A query cannot contain a NUL character'),
        z.number().int().min(1).max(PROJECT_FILE_LIMITS.maxLimit),
      ],
      result: projectFileSearchSchema,
    },
  },
  state: {},
  events: {},
});
