/**
 * A typed theme: every named style the UI uses, so a component asks for `toolTitle`, never for a colour.
 * A colour is `'default'`, a palette index (0–255) or a hex RGB string.
 */

export const THEME_STYLES = [
  'text',
  'accent',
  'muted',
  'dim',
  'success',
  'warning',
  'error',
  'toolTitle',
  'border',
] as const;

export type ThemeStyleName = (typeof THEME_STYLES)[number];

export type Color = 'default' | number | `#${string}`;

export interface Style {
  readonly fg?: Color;
  readonly bg?: Color;
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly dim?: boolean;
  readonly underline?: boolean;
}

export interface Theme {
  readonly name: string;
  readonly styles: Readonly<Record<ThemeStyleName, Style>>;
}

/** The built-in dark theme: 16-colour palette entries, so it follows the user's terminal colours. */
export const darkTheme: Theme = {
  name: 'dark',
  styles: {
    text: {},
    accent: { fg: 6 },
    muted: { fg: 8 },
    dim: { dim: true },
    success: { fg: 2 },
    warning: { fg: 3 },
    error: { fg: 1 },
    toolTitle: { fg: 6, bold: true },
    border: { fg: 8 },
  },
};

/**
 * The built-in light theme, for terminals with a light background: the same 16-colour entries where they read
 * on white, darker ones (palette 0–7) where the bright ones would wash out.
 */
export const lightTheme: Theme = {
  name: 'light',
  styles: {
    text: {},
    accent: { fg: 4 },
    muted: { fg: 8 },
    dim: { dim: true },
    success: { fg: 2 },
    warning: { fg: 5 },
    error: { fg: 1 },
    toolTitle: { fg: 4, bold: true },
    border: { fg: 7 },
  },
};
