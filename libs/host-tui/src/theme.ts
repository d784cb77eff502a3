import type { TuiTheme } from '@pi/plugin-api';
import { bold, createStyler, darkTheme, type Theme } from '@pi/terminal';

/** The facets' view of a terminal theme: named colours, never escape codes of their own. */
export function tuiTheme(theme: Theme = darkTheme): TuiTheme {
  const styler = createStyler(theme);
  const facetTheme: TuiTheme = { fg: (color, text) => styler.paint(color, text), bold: (text) => bold(text) };
  return Object.freeze(facetTheme);
}
