import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JsonObject, JsonValue, TuiKey, TuiTheme, WritableSettingLayer } from '@pi/plugin-api';
import type { SettingEntry, SettingsCatalogState } from '@pi/settings';
import { SettingsPanel } from './settings-panel';

const plain: TuiTheme = { fg: (_color, text) => text, bold: (text) => text };
const key = (name: string, text?: string, shift = false): TuiKey => ({
  name,
  ...(text === undefined ? {} : { text }),
  ctrl: false,
  alt: false,
  shift,
});
const typed = (text: string) => [...text].map((char) => key(char, char));

function entry(key: string, owner: string, schema: z.ZodType, value: JsonValue): SettingEntry {
  return {
    key,
    owner,
    description: key,
    schema: z.toJSONSchema(schema) as JsonObject,
    default: value,
    value,
    layer: 'defaults',
  };
}

function panelOn(settings: SettingEntry[]) {
  const state: SettingsCatalogState = { settings, warnings: [], themes: [], themeWarnings: [] };
  const calls: Array<[string, string, JsonValue | undefined, WritableSettingLayer]> = [];
  const told: string[] = [];
  const panel = new SettingsPanel(
    {
      state: () => state,
      set: (name, value, layer) => calls.push(['set', name, value, layer]),
      unset: (name, layer) => calls.push(['unset', name, undefined, layer]),
      tell: (message) => told.push(message),
      changed: () => undefined,
    },
    plain,
  );
  panel.open();
  const press = (...keys: TuiKey[]) => keys.forEach((each) => panel.handleKey(each));
  return { panel, calls, told, press };
}

const SETTINGS = [
  entry('theme', '@pi/settings', z.enum(['dark', 'light']), 'dark'),
  entry('editor.tabSize', '@test/editor', z.int().min(1), 2),
  entry('editor.vim', '@test/editor', z.boolean(), false),
  entry('greeting', '@test/editor', z.string(), 'hi'),
];

describe('the settings panel', () => {
  it('lists the settings grouped by plugin, with value and layer, and the layer changes go to', () => {
    const { panel } = panelOn(SETTINGS);
    expect(panel.render()).toEqual([
      'Settings  changes go to [session] user project',
      '@pi/settings',
      '› theme = ‹ dark ›  (defaults)',
      '@test/editor',
      '  editor.tabSize = 2  (defaults)',
      '  editor.vim = false  (defaults)',
      '  greeting = hi  (defaults)',
      '↑↓ move · ←→ change · enter edit · tab layer · del reset · esc close',
    ]);
  });

  it('steps an enum or a boolean with ←/→ and saves each step to the chosen layer', () => {
    const { calls, press } = panelOn(SETTINGS);
    press(key('right'), key('tab'), key('down'), key('down'), key('left'));
    expect(calls).toEqual([
      ['set', 'theme', 'light', 'session'],
      ['set', 'editor.vim', true, 'user'],
    ]);
  });

  it('edits a number in place and refuses text that is not one, without saving it', () => {
    const { panel, calls, told, press } = panelOn(SETTINGS);
    press(...typed('tab'), key('enter'));
    expect(panel.render()).toContain('› editor.tabSize = 2▏  (defaults)');
    press(key('backspace'), ...typed('4'), key('enter'));
    press(key('enter'), key('backspace'), ...typed('x'), key('enter'));
    expect(calls).toEqual([['set', 'editor.tabSize', 4, 'session']]);
    expect(told).toEqual(['editor.tabSize not changed: "x" is not a number']);
  });

  it('Esc while editing keeps the value; Delete resets the key in the chosen layer; Esc closes', () => {
    const { panel, calls, press } = panelOn(SETTINGS);
    press(...typed('greet'), key('enter'), ...typed('!'), key('escape'));
    press(key('tab', undefined, true), key('delete'));
    expect(calls).toEqual([['unset', 'greeting', undefined, 'project']]);
    press(key('escape'));
    expect(panel.isOpen).toBe(false);
    expect(panel.render()).toEqual([]);
    expect(panel.handleKey(key('down'))).toBe(false);
  });

  it('says when nothing matches the filter', () => {
    const { panel, press } = panelOn(SETTINGS);
    press(...typed('zzz'));
    expect(panel.render()).toContain('  (nothing matches)');
  });
});
