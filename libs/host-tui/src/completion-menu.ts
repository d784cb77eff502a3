import type { CompletionItem, TuiTheme } from '@pi/plugin-api';
import { padRight, visibleWidth } from '@pi/terminal';

/** The choices of an open completion menu, which one is highlighted, and the first one shown. */
export interface CompletionMenu {
  readonly items: readonly CompletionItem[];
  readonly selected: number;
  /** The first item shown: the list scrolls to keep the highlighted one in view. */
  readonly top: number;
}

/** How many items the menu shows at most; more scroll, with a line saying how many are above and below. */
export const MENU_ROWS = 8;

/** The widest label column; longer labels are cut by the line's width, descriptions start after it. */
const LABEL_COLUMN_MAX = 28;

/**
 * A menu of `items`, the first highlighted. When it replaces `previous` (new items for the same token, after the user
 * moved the highlight), the highlighted item stays highlighted if it is still there.
 */
export function menuOf(items: readonly CompletionItem[], rows: number, previous?: CompletionMenu): CompletionMenu {
  const kept = previous === undefined ? undefined : selectedItem(previous)?.insert;
  const index = kept === undefined ? -1 : items.findIndex((item) => item.insert === kept);
  return scrolledTo({ items, selected: Math.max(0, index), top: previous?.top ?? 0 }, rows);
}

export function selectedItem(menu: CompletionMenu): CompletionItem | undefined {
  return menu.items[menu.selected];
}

/** Moves the highlight by `delta`, wrapping from the last item to the first and back, and scrolls it into view. */
export function moveSelection(menu: CompletionMenu, delta: number, rows: number): CompletionMenu {
  const count = menu.items.length;
  if (count === 0) return menu;
  const selected = (((menu.selected + delta) % count) + count) % count;
  return scrolledTo({ ...menu, selected }, rows);
}

function scrolledTo(menu: CompletionMenu, rows: number): CompletionMenu {
  const shown = Math.max(1, rows);
  const highest = Math.max(0, menu.items.length - shown);
  let top = Math.min(menu.top, highest);
  if (menu.selected < top) top = menu.selected;
  if (menu.selected >= top + shown) top = menu.selected - shown + 1;
  return { ...menu, top };
}

/**
 * The menu's lines: at most `rows` items, the highlighted one marked `›` in the accent colour, each label padded
 * to one column and followed by its description; then, when the list scrolls, how many items are above and below.
 */
export function menuLines(menu: CompletionMenu, rows: number, theme: TuiTheme): string[] {
  const shown = menu.items.slice(menu.top, menu.top + Math.max(1, rows));
  // One column for the whole list, so descriptions do not shift sideways as it scrolls.
  const column = Math.min(LABEL_COLUMN_MAX, Math.max(...menu.items.map((item) => visibleWidth(labelOf(item)))));
  const lines = shown.map((item, offset) => {
    const label = item.description === undefined ? labelOf(item) : padRight(labelOf(item), column);
    const description = item.description === undefined ? '' : `  ${theme.fg('muted', item.description)}`;
    return menu.top + offset === menu.selected
      ? `${theme.fg('accent', theme.bold(`› ${label}`))}${description}`
      : `  ${label}${description}`;
  });
  const above = menu.top;
  const below = menu.items.length - menu.top - shown.length;
  if (above > 0 || below > 0) {
    const parts = [...(above > 0 ? [`↑ ${above} more`] : []), ...(below > 0 ? [`↓ ${below} more`] : [])];
    lines.push(theme.fg('dim', `  ${parts.join(' · ')}`));
  }
  return lines;
}

function labelOf(item: CompletionItem): string {
  return item.label ?? item.insert.trimEnd();
}
