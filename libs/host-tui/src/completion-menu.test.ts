import { describe, expect, it } from 'vitest';
import type { CompletionItem, TuiTheme } from '@pi/plugin-api';
import { menuLines, menuOf, moveSelection, selectedItem, type CompletionMenu } from './completion-menu';
import { findToken } from './completion-token';

const plain: TuiTheme = { fg: (_color, text) => text, bold: (text) => text };
const items = (count: number): CompletionItem[] =>
  Array.from({ length: count }, (_, index) => ({ insert: `/c${index} `, description: `command ${index}` }));
const highlighted = (menu: CompletionMenu) => selectedItem(menu)?.insert.trim();

describe('the completion menu', () => {
  it('opens on the first item and shows every item when they fit, with no scroll line', () => {
    const menu = menuOf(items(3), 8);
    expect(highlighted(menu)).toBe('/c0');
    expect(menuLines(menu, 8, plain)).toEqual(['› /c0  command 0', '  /c1  command 1', '  /c2  command 2']);
  });

  it('moves the highlight down and up, wrapping from the last item to the first and back', () => {
    let menu = menuOf(items(3), 8);
    menu = moveSelection(menu, 1, 8);
    expect(highlighted(menu)).toBe('/c1');
    menu = moveSelection(moveSelection(menu, 1, 8), 1, 8);
    expect(highlighted(menu)).toBe('/c0');
    menu = moveSelection(menu, -1, 8);
    expect(highlighted(menu)).toBe('/c2');
  });

  it('scrolls to keep the highlight in view and says how many items are above and below', () => {
    let menu = menuOf(items(20), 5);
    expect(menuLines(menu, 5, plain).at(-1)).toBe('  ↓ 15 more');
    for (let step = 0; step < 6; step++) menu = moveSelection(menu, 1, 5);
    expect(highlighted(menu)).toBe('/c6');
    const lines = menuLines(menu, 5, plain);
    expect(lines.slice(0, 5).map((line) => line.slice(2, 5).trim())).toEqual(['/c2', '/c3', '/c4', '/c5', '/c6']);
    expect(lines[4]).toMatch(/^› \/c6/);
    expect(lines.at(-1)).toBe('  ↑ 2 more · ↓ 13 more');
  });

  it('keeps one label column for the whole list while it scrolls', () => {
    const menu = menuOf(
      [{ insert: '/a ', description: 'short' }, ...items(8), { insert: '/a-much-longer-name ', description: 'long' }],
      3,
    );
    expect(menuLines(menu, 3, plain)[0]).toBe('› /a                   short');
  });

  it('wrapping up from the first item shows the end of the list', () => {
    const menu = moveSelection(menuOf(items(20), 5), -1, 5);
    expect(highlighted(menu)).toBe('/c19');
    const lines = menuLines(menu, 5, plain);
    expect(lines[4]).toMatch(/^› \/c19/);
    expect(lines.at(-1)).toBe('  ↑ 15 more');
  });

  it('keeps the highlighted item when new items for the same token still hold it, else starts at the first', () => {
    const before = moveSelection(menuOf(items(5), 8), 3, 8);
    expect(highlighted(menuOf(items(5).slice(2), 8, before))).toBe('/c3');
    expect(highlighted(menuOf(items(2), 8, before))).toBe('/c0');
  });

  it('pads described labels to one column, shows a label instead of the inserted text, and leaves out a missing description', () => {
    const menu = menuOf(
      [{ insert: '@src/app.ts ' }, { insert: '/name ', label: '/name <title>', description: 'rename' }],
      8,
    );
    expect(menuLines(menu, 8, plain)).toEqual(['› @src/app.ts', '  /name <title>  rename']);
  });
});

describe('the token a completion replaces', () => {
  const sources = [
    { trigger: '/', position: 'promptStart' as const },
    { trigger: '@', position: 'wordStart' as const },
  ];

  it('is a slash command only at the start of the prompt, and a file anywhere a word starts', () => {
    expect(findToken('/mo', 3, sources)?.token).toEqual({ trigger: '/', start: 0, end: 3, query: 'mo' });
    expect(findToken('see /mo', 7, sources)).toBeUndefined();
    expect(findToken('read @src/a and\n@b', 11, sources)?.token).toEqual({
      trigger: '@',
      start: 5,
      end: 11,
      query: 'src/a',
    });
    expect(findToken('read @src/a and\n@b', 18, sources)?.token.query).toBe('b');
    expect(findToken('mail me@host', 12, sources)).toBeUndefined();
  });

  it('runs on past the cursor to the end of the word, and ends at whitespace before it', () => {
    expect(findToken('@src/app.ts rest', 4, sources)?.token).toEqual({ trigger: '@', start: 0, end: 11, query: 'src' });
    expect(findToken('/model ', 7, sources)).toBeUndefined();
    expect(findToken('@', 0, sources)).toBeUndefined();
  });

  it('never spans a paste marker', () => {
    expect(findToken('@a\u{f0001}', 3, sources)).toBeUndefined();
  });
});
