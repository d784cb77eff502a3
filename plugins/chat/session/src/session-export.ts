import { writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { SessionEntry } from '@pi/agent';
import type { ExportRequest, ExportResult } from '@pi/chat';
import { RemoteError } from '@pi/remote';
import { sessionHtml } from './session-html';

/** What an export reads: the session's id and working directory, and its current branch. */
export interface SessionExportParts {
  readonly sessionId: string;
  readonly cwd: string;
  readonly branch: () => readonly SessionEntry[];
}

/**
 * `Chat.exportHtml`: the page of the current branch, written where asked (or beside the project as
 * `pi-session-<id>.html`). An existing file is replaced only when `overwrite` says so: a second export of the same
 * session, or a name that happens to be taken, is asked about rather than lost (the TUI confirms first).
 */
export async function exportSession(parts: SessionExportParts, request: ExportRequest): Promise<ExportResult> {
  const path = exportPath(parts.cwd, parts.sessionId, request.path);
  const entries = parts.branch();
  const html = sessionHtml({
    sessionId: parts.sessionId,
    cwd: parts.cwd,
    exportedAt: new Date().toISOString(),
    entries,
  });
  try {
    await writeFile(path, html, { flag: request.overwrite === true ? 'w' : 'wx' });
  } catch (error) {
    throw writeFailure(path, error);
  }
  return { path, bytes: Buffer.byteLength(html), entries: entries.length };
}

/**
 * The file a request names: relative to the working directory, absolute, or under the home directory (`~/…`); none,
 * `pi-session-<id>.html` in the working directory. (The request's schema trims the path and refuses a blank one.)
 */
export function exportPath(cwd: string, sessionId: string, path: string | undefined): string {
  if (path === undefined) return join(cwd, `pi-session-${sessionId}.html`);
  if (path === '~' || path.startsWith('~/')) return join(homedir(), path.slice(1));
  return resolve(cwd, path);
}

function writeFailure(path: string, error: unknown): RemoteError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'EEXIST':
      return new RemoteError('file_exists', `${path} exists already`);
    case 'ENOENT':
      return new RemoteError('not_writable', `The directory ${dirname(path)} does not exist`);
    case 'ENOTDIR':
      return new RemoteError('not_writable', `A part of ${dirname(path)} is a file, not a directory`);
    case 'EISDIR':
      return new RemoteError('not_writable', `${path} is a directory`);
    case 'EACCES':
    case 'EPERM':
      return new RemoteError('not_writable', `${path} cannot be written here: permission denied`);
    case 'EROFS':
      return new RemoteError('not_writable', `${path} is on a read-only file system`);
    default:
      return new RemoteError('not_writable', `${path} could not be written: ${code ?? 'unknown error'}`);
  }
}
