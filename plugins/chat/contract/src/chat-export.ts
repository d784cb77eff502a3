import { z } from 'zod';

/**
 * `/export [file]`: the session's current branch as one self-contained HTML page (inline styles, no scripts, nothing
 * fetched), written by the session into its own file system.
 */
export interface ExportRequest {
  /**
   * Where to write it: relative to the session's working directory, absolute, or under `~/`. Absent: the file
   * `pi-session-<session id>.html` in the working directory.
   */
  path?: string;
  /** Replace a file that exists already; without it an existing file fails with `file_exists`. */
  overwrite?: boolean;
}

export interface ExportResult {
  /** The absolute path written. */
  path: string;
  bytes: number;
  /** How many entries of the current branch it was made of. */
  entries: number;
}

/** The RemoteError codes `exportHtml` fails with; for every one of them nothing was written. */
export const EXPORT_ERROR_CODES = {
  /** The file exists and `overwrite` was not asked for (the message names it). */
  file_exists: 'file_exists',
  /** The directory is missing, is not a directory, or may not be written; or the path names a directory. */
  not_writable: 'not_writable',
} as const;
export type ExportErrorCode = (typeof EXPORT_ERROR_CODES)[keyof typeof EXPORT_ERROR_CODES];

/** The longest path `exportHtml` accepts (Linux's PATH_MAX). */
export const MAX_EXPORT_PATH_LENGTH = 4096;

export const exportRequestSchema: z.ZodType<ExportRequest> = z.object({
  path: z.string().trim().min(1).max(MAX_EXPORT_PATH_LENGTH).optional(),
  overwrite: z.boolean().optional(),
});

export const exportResultSchema: z.ZodType<ExportResult> = z.object({
  path: z.string(),
  bytes: z.number().int().min(0),
  entries: z.number().int().min(0),
});
