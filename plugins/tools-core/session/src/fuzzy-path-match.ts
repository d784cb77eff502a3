/** How well a path matches a completion query: the higher `tier` the better; then the smaller `spread`. */
export interface PathMatch {
  /**
   * 6 the name is the query, 5 the name starts with it, 4 the path is inside the directory the query names (`src/`),
   * 3 a path segment (or run of segments) starts with it, 2 the query is in the path, 1 its characters are in the
   * path in order; 0 for the empty query (everything matches).
   */
  readonly tier: number;
  /** For tier 1: how far apart the characters lie (0 when they are adjacent). */
  readonly spread: number;
}

/** Tiers that list a directory (the root for the empty query): by depth and name, as `ls` would, not by length. */
const LISTING_TIERS: ReadonlySet<number> = new Set([0, 4]);

/**
 * How `path` (relative, `/`-separated) matches `query`, ignoring case; undefined when it does not. A leading `./` or
 * `@` of the query is not part of it.
 */
export function matchPath(path: string, query: string): PathMatch | undefined {
  const wanted = normalizedQuery(query);
  if (wanted === '') return { tier: 0, spread: 0 };
  const lower = path.toLowerCase();
  const name = lower.slice(lower.lastIndexOf('/') + 1);
  if (name === wanted) return { tier: 6, spread: 0 };
  if (name.startsWith(wanted)) return { tier: 5, spread: 0 };
  if (wanted.endsWith('/') && lower.startsWith(wanted)) return { tier: 4, spread: 0 };
  if (`/${lower}`.includes(`/${wanted}`)) return { tier: 3, spread: 0 };
  if (lower.includes(wanted)) return { tier: 2, spread: 0 };
  const spread = subsequenceSpread(lower, wanted);
  return spread === undefined ? undefined : { tier: 1, spread };
}

/**
 * Orders matches best first: tier, then spread, then shallower, then shorter (except where a directory is listed:
 * the empty query, or `src/`), then by name ignoring case.
 */
export function compareMatches(
  a: { readonly path: string; readonly match: PathMatch },
  b: { readonly path: string; readonly match: PathMatch },
): number {
  return (
    b.match.tier - a.match.tier ||
    a.match.spread - b.match.spread ||
    depth(a.path) - depth(b.path) ||
    (LISTING_TIERS.has(a.match.tier) ? 0 : a.path.length - b.path.length) ||
    byCodePoint(a.path.toLowerCase(), b.path.toLowerCase()) ||
    byCodePoint(a.path, b.path)
  );
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function normalizedQuery(query: string): string {
  return query
    .replace(/^@/, '')
    .replace(/^(\.\/)+/, '')
    .toLowerCase();
}

/**
 * The query's characters found in the path in order, matched from the end (so they gather in the file name), and
 * how many other characters lie between the first and the last; undefined when they are not all there.
 */
function subsequenceSpread(path: string, query: string): number | undefined {
  let at = path.length;
  let last = -1;
  for (let index = query.length - 1; index >= 0; index -= 1) {
    if (at === 0) return undefined;
    at = path.lastIndexOf(query[index] ?? '', at - 1);
    if (at < 0) return undefined;
    if (last < 0) last = at;
  }
  return last - at + 1 - query.length;
}

function depth(path: string): number {
  let count = 0;
  for (const character of path) if (character === '/') count += 1;
  return count;
}
