import { describe, expect, it } from 'vitest';
import { compareMatches, matchPath } from './fuzzy-path-match';

/** `paths` that match `query`, best first, as the search orders them. */
const ranked = (query: string, paths: readonly string[]) =>
  paths
    .flatMap((path) => {
      const match = matchPath(path, query);
      return match === undefined ? [] : [{ path, match }];
    })
    .sort(compareMatches)
    .map((entry) => entry.path);

describe('fuzzy path matching', () => {
  it('ranks a name starting with the query over a path segment starting with it, over the query inside a name, over its letters in order', () => {
    const paths = ['docs/mapping.md', 'src/app.ts', 'apps/tui/main.ts', 'lib/a-p-p.ts', 'src/webapp.ts', 'zzz.md'];
    expect(ranked('app', paths)).toEqual([
      'src/app.ts',
      'apps/tui/main.ts',
      'src/webapp.ts',
      'docs/mapping.md',
      'lib/a-p-p.ts',
    ]);
  });

  it('puts an exact name first, then shallower paths, then shorter ones, ignoring case', () => {
    expect(ranked('readme', ['docs/README.md', 'README.md', 'pkg/a/readme', 'README'])).toEqual([
      'README',
      'pkg/a/readme',
      'README.md',
      'docs/README.md',
    ]);
  });

  it('matches a query of several segments from a segment start, and prefers letters close together in the name', () => {
    expect(ranked('src/ap', ['src/app.ts', 'lib/src/apply.ts', 'x/srcap.ts'])).toEqual([
      'src/app.ts',
      'lib/src/apply.ts',
    ]);
    expect(ranked('tht', ['t-h-t.ts', 'the-hat.ts', 'tht.ts'])).toEqual(['tht.ts', 't-h-t.ts', 'the-hat.ts']);
  });

  it('lists what is inside a directory the query names by depth and name, before other matches of it', () => {
    expect(ranked('src/', ['lib/src/a.ts', 'src/util/strings.ts', 'src/zebra.ts', 'src/util', 'src/app.ts'])).toEqual([
      'src/app.ts',
      'src/util',
      'src/zebra.ts',
      'src/util/strings.ts',
      'lib/src/a.ts',
    ]);
  });

  it('takes a leading @ or ./ as not part of the query, and matches everything for an empty one', () => {
    expect(ranked('@./src/app', ['src/app.ts'])).toEqual(['src/app.ts']);
    expect(matchPath('anything/at/all', '')).toEqual({ tier: 0, spread: 0 });
  });

  it('does not match when a letter is missing or out of order', () => {
    expect(matchPath('src/app.ts', 'ppx')).toBeUndefined();
    expect(matchPath('ab', 'ba')).toBeUndefined();
    expect(matchPath('a', 'aa')).toBeUndefined();
  });
});
