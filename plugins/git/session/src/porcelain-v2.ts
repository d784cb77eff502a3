import { err, ok, type Result } from 'neverthrow';
import type { GitChanges } from '@pi/git';

/**
 * What `git status --porcelain=v2 --branch -z` says, reduced to what the status needs: the branch headers and
 * how many entries of each kind. Paths are read only to be counted; nothing of them is kept.
 */
export interface PorcelainStatus {
  /** The full object name of HEAD, or null on a branch without commits (`(initial)`). */
  readonly oid: string | null;
  /** The branch, or null when HEAD is detached (`(detached)`). */
  readonly head: string | null;
  readonly upstream: string | null;
  /** Null when there is no upstream, or it is gone (git then prints no `branch.ab`). */
  readonly aheadBehind: { readonly ahead: number; readonly behind: number } | null;
  readonly changes: GitChanges;
}

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
const XY = /^[.MTADRCU]{2}$/;
const SUBMODULE = /^(?:N\.\.\.|S[C.][M.][U.])$/;
const MODE = /^[0-7]{6}$/;
const SCORE = /^[RC]\d{1,3}$/;
const AHEAD_BEHIND = /^\+(\d+) -(\d+)$/;

/**
 * Reads the records of porcelain v2 output one at a time (with `-z` every record ends with NUL, and a rename
 * or copy entry is followed by one more record: its original path). Strict: an entry of an unknown kind, a
 * field of the wrong form or a missing branch header is an error. Unknown `#` headers are skipped, as git's
 * documentation asks of parsers (new ones appear with new options).
 */
export class PorcelainV2Parser {
  private oid: string | null | undefined;
  private head: string | null | undefined;
  private upstream: string | null = null;
  private aheadBehind: PorcelainStatus['aheadBehind'] = null;
  private readonly changes = { staged: 0, unstaged: 0, untracked: 0, conflicted: 0 };
  private awaitingOriginalPath = false;

  /** Takes one record; returns a problem when it is not valid porcelain v2. */
  readonly accept = (record: string): string | undefined => {
    if (this.awaitingOriginalPath) {
      this.awaitingOriginalPath = false;
      return record === '' ? 'a rename entry without its original path' : undefined;
    }
    if (record.startsWith('# ')) return this.header(record.slice(2));
    const kind = record.slice(0, 2);
    switch (kind) {
      case '1 ':
        return this.changed(record, 9);
      case '2 ': {
        const problem = this.changed(record, 10);
        this.awaitingOriginalPath = problem === undefined;
        return problem;
      }
      case 'u ':
        return this.unmerged(record);
      case '? ':
        return this.path(record.slice(2), () => (this.changes.untracked += 1));
      case '! ':
        return this.path(record.slice(2), () => undefined);
      default:
        return `an entry of unknown kind ${JSON.stringify(record.slice(0, 2))}`;
    }
  };

  /** The status once the output ended, or why it is incomplete. */
  result(): Result<PorcelainStatus, string> {
    if (this.awaitingOriginalPath) return err('the output ends before a rename entry’s original path');
    if (this.oid === undefined || this.head === undefined) return err('the branch headers are missing');
    return ok({
      oid: this.oid,
      head: this.head,
      upstream: this.upstream,
      aheadBehind: this.aheadBehind,
      changes: { ...this.changes },
    });
  }

  private header(text: string): string | undefined {
    const space = text.indexOf(' ');
    const [name, value] = space === -1 ? [text, ''] : [text.slice(0, space), text.slice(space + 1)];
    switch (name) {
      case 'branch.oid':
        if (value !== '(initial)' && !OID.test(value)) return 'a branch.oid that is not an object name';
        this.oid = value === '(initial)' ? null : value;
        return undefined;
      case 'branch.head':
        if (value === '') return 'an empty branch.head';
        this.head = value === '(detached)' ? null : value;
        return undefined;
      case 'branch.upstream':
        if (value === '') return 'an empty branch.upstream';
        this.upstream = value;
        return undefined;
      case 'branch.ab': {
        const match = AHEAD_BEHIND.exec(value);
        if (match === null) return 'a branch.ab that is not "+<ahead> -<behind>"';
        this.aheadBehind = { ahead: Number(match[1]), behind: Number(match[2]) };
        return undefined;
      }
      default:
        return undefined;
    }
  }

  /** `1 XY sub mH mI mW hH hI path` or `2 XY sub mH mI mW hH hI Xscore path`. */
  private changed(record: string, fieldCount: number): string | undefined {
    const fields = splitFields(record, fieldCount);
    if (fields === undefined) return 'a changed entry with too few fields';
    const [, xy = '', sub = '', mH = '', mI = '', mW = '', hH = '', hI = '', ...rest] = fields;
    if (!XY.test(xy) || !SUBMODULE.test(sub)) return 'a changed entry with a malformed status or submodule field';
    if (![mH, mI, mW].every((mode) => MODE.test(mode))) return 'a changed entry with a malformed mode';
    if (!OID.test(hH) || !OID.test(hI)) return 'a changed entry with a malformed object name';
    if (fieldCount === 10 && !SCORE.test(rest[0] ?? '')) return 'a rename entry with a malformed score';
    return this.path(rest.at(-1) ?? '', () => this.countChange(xy));
  }

  /** `u XY sub m1 m2 m3 mW h1 h2 h3 path`. */
  private unmerged(record: string): string | undefined {
    const fields = splitFields(record, 11);
    if (fields === undefined) return 'an unmerged entry with too few fields';
    const [, xy = '', sub = '', m1 = '', m2 = '', m3 = '', mW = '', h1 = '', h2 = '', h3 = '', path = ''] = fields;
    if (!XY.test(xy) || !SUBMODULE.test(sub)) return 'an unmerged entry with a malformed status or submodule field';
    if (![m1, m2, m3, mW].every((mode) => MODE.test(mode))) return 'an unmerged entry with a malformed mode';
    if (![h1, h2, h3].every((oid) => OID.test(oid))) return 'an unmerged entry with a malformed object name';
    return this.path(path, () => (this.changes.conflicted += 1));
  }

  private countChange(xy: string): void {
    if (xy[0] !== '.') this.changes.staged += 1;
    if (xy[1] !== '.') this.changes.unstaged += 1;
  }

  private path(path: string, count: () => void): string | undefined {
    if (path === '') return 'an entry without a path';
    count();
    return undefined;
  }
}

/** The first `count - 1` space-separated fields and the rest (a path may contain spaces), or undefined. */
function splitFields(record: string, count: number): string[] | undefined {
  const fields: string[] = [];
  let start = 0;
  for (let index = 0; index < count - 1; index++) {
    const space = record.indexOf(' ', start);
    if (space === -1) return undefined;
    fields.push(record.slice(start, space));
    start = space + 1;
  }
  fields.push(record.slice(start));
  return fields;
}
