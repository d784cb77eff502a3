import type { TuiTheme, TuiThemeDefinition } from '@pi/plugin-api';
import { THEME_STYLES, bold, createStyler, darkTheme, type Theme } from '@pi/terminal';

/** The facets' view of a terminal theme: named colours, never escape codes of their own. */
export function tuiTheme(theme: Theme = darkTheme): TuiTheme {
  const styler = createStyler(theme);
  const facetTheme: TuiTheme = { fg: (color, text) => styler.paint(color, text), bold: (text) => bold(text) };
  return Object.freeze(facetTheme);
}

/**
 * The host's one theme object, handed to every facet once: it paints with whichever theme was applied last, so a
 * theme switch needs no facet to pick up a new object, only a repaint.
 */
export class LiveTheme {
  #styler = createStyler(darkTheme);
  readonly #changed: () => void;
  readonly theme: TuiTheme;

  /** `changed` runs after a switch: the host forgets cached renderings and repaints. */
  constructor(changed: () => void) {
    this.#changed = changed;
    this.theme = Object.freeze({
      fg: (color, text) => this.#styler.paint(color, text),
      bold: (text) => bold(text),
    } satisfies TuiTheme);
  }

  get name(): string {
    return this.#styler.theme.name;
  }

  /** Applies a theme; a style it leaves out is the dark theme's. */
  apply(definition: TuiThemeDefinition): void {
    const styles = Object.fromEntries(
      THEME_STYLES.map((style) => [style, definition.styles[style] ?? darkTheme.styles[style]]),
    ) as Theme['styles'];
    this.#styler = createStyler({ name: definition.name, styles });
    this.#changed();
  }
}
