import { z } from 'zod';
import type { ThemeColor } from '@pi/plugin-api';

/** Every named colour a theme styles: the TUI's `ThemeColor`s, checked against that type. */
export const THEME_COLORS = [
  'text',
  'accent',
  'muted',
  'dim',
  'success',
  'warning',
  'error',
  'toolTitle',
  'border',
] as const satisfies readonly ThemeColor[];

/** The themes every TUI has: `dark` (the original colours) and `light`. */
export const BUILTIN_THEME_NAMES = ['dark', 'light'] as const;

/** A theme's name: its file name without `.json`; lower-case, so it is the same on every file system. */
export const THEME_NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,31}$/;

/** `'default'` (the terminal's own), a 256-colour palette index, or `#rrggbb`. */
export const themeColorValueSchema = z.union([
  z.literal('default'),
  z.int().min(0).max(255),
  z.string().regex(/^#[0-9a-fA-F]{6}$/, 'A colour is "default", 0–255 or "#rrggbb"'),
]);

export const themeStyleSchema = z.strictObject({
  fg: themeColorValueSchema.optional(),
  bg: themeColorValueSchema.optional(),
  bold: z.boolean().optional(),
  italic: z.boolean().optional(),
  dim: z.boolean().optional(),
  underline: z.boolean().optional(),
});

export type ThemeStyle = z.infer<typeof themeStyleSchema>;

/**
 * A user theme, `<configDir>/themes/<name>.json`: the built-in theme it starts from, and the styles it changes.
 * A colour it leaves out keeps the base theme's style.
 */
export const themeFileSchema = z.strictObject({
  base: z.enum(BUILTIN_THEME_NAMES).default('dark'),
  styles: z.partialRecord(z.enum(THEME_COLORS), themeStyleSchema).default({}),
});

export type ThemeFile = z.infer<typeof themeFileSchema>;

/** A user theme as the session serves it to every TUI. */
export const themeRecordSchema = z.object({
  name: z.string().regex(THEME_NAME_PATTERN),
  base: z.enum(BUILTIN_THEME_NAMES),
  styles: z.partialRecord(z.enum(THEME_COLORS), themeStyleSchema),
});

export type ThemeRecord = z.infer<typeof themeRecordSchema>;
