import type { Color, Style, Theme, ThemeStyleName } from './theme';

/**
 * SGR styling. Every helper closes only what it opened (39 for a foreground, 22 for bold, …) and re-opens its
 * style after a nested close, so styled pieces nest and concatenate without a full reset.
 */

/** How many colours the terminal shows; `none` drops colour (NO_COLOR) but keeps bold/italic/underline. */
export type ColorLevel = 'truecolor' | '256' | '16' | 'none';

const csi = (params: string): string => `\x1b[${params}m`;

function wrap(text: string, open: string, close: string): string {
  if (open === '' || text === '') return text;
  return open + text.split(close).join(close + open) + close;
}

/** Nearest index in the 6×6×6 cube of the 256-colour palette. */
function rgbTo256(r: number, g: number, b: number): number {
  const step = (v: number): number => (v < 48 ? 0 : v < 115 ? 1 : Math.floor((v - 35) / 40));
  return 16 + 36 * step(r) + 6 * step(g) + step(b);
}

/** Nearest of the 16 basic colours, by channel threshold. */
function rgbTo16(r: number, g: number, b: number): number {
  const bright = Math.max(r, g, b) > 191 ? 8 : 0;
  return bright + (b > 95 ? 4 : 0) + (g > 95 ? 2 : 0) + (r > 95 ? 1 : 0);
}

/** The SGR parameters selecting `color` as foreground (base 30) or background (base 40), or '' for none. */
export function colorParameters(color: Color, layer: 'fg' | 'bg', level: ColorLevel = 'truecolor'): string {
  if (level === 'none') return '';
  const base = layer === 'fg' ? 30 : 40;
  if (color === 'default') return String(base + 9);
  let index: number;
  if (typeof color === 'number') {
    index = Math.max(0, Math.min(255, Math.floor(color)));
  } else {
    const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
    if (!hex) return '';
    const [r, g, b] = [hex[1], hex[2], hex[3]].map((h) => parseInt(h ?? '0', 16)) as [number, number, number];
    if (level === 'truecolor') return `${base + 8};2;${r};${g};${b}`;
    index = level === '256' ? rgbTo256(r, g, b) : rgbTo16(r, g, b);
  }
  if (index < 8) return String(base + index);
  if (index < 16) return String(base + 60 + index - 8);
  if (level === '16') return String(base + 7); // a palette colour beyond 16: plain white/grey
  return `${base + 8};5;${index}`;
}

export const bold = (text: string): string => wrap(text, csi('1'), csi('22'));
export const dim = (text: string): string => wrap(text, csi('2'), csi('22'));
export const italic = (text: string): string => wrap(text, csi('3'), csi('23'));
export const underline = (text: string): string => wrap(text, csi('4'), csi('24'));
export const inverse = (text: string): string => wrap(text, csi('7'), csi('27'));

export function fg(color: Color, text: string, level: ColorLevel = 'truecolor'): string {
  const params = colorParameters(color, 'fg', level);
  return params === '' ? text : wrap(text, csi(params), csi('39'));
}

export function bg(color: Color, text: string, level: ColorLevel = 'truecolor'): string {
  const params = colorParameters(color, 'bg', level);
  return params === '' ? text : wrap(text, csi(params), csi('49'));
}

/** Applies every attribute of a style. */
export function applyStyle(style: Style, text: string, level: ColorLevel = 'truecolor'): string {
  let out = text;
  if (style.fg !== undefined) out = fg(style.fg, out, level);
  if (style.bg !== undefined) out = bg(style.bg, out, level);
  if (style.bold) out = bold(out);
  if (style.dim) out = dim(out);
  if (style.italic) out = italic(out);
  if (style.underline) out = underline(out);
  return out;
}

/** Paints text with the theme's named styles: `paint('toolTitle', 'bash')`. */
export interface Styler {
  readonly theme: Theme;
  paint(name: ThemeStyleName, text: string): string;
}

export function createStyler(theme: Theme, level: ColorLevel = 'truecolor'): Styler {
  return { theme, paint: (name, text) => applyStyle(theme.styles[name], text, level) };
}
