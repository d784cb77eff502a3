import { describe, expect, it } from 'vitest';
import type { ModelsState } from '@pi/providers-builtin';
import { footerLine, footerText, modelChoices, pickerNote, printable } from './model-text';

const state = (patch: Partial<ModelsState> = {}): ModelsState => ({
  catalog: {
    revision: 1,
    availableModels: [
      { provider: 'offline', modelId: 'echo', name: 'Offline echo', reasoning: false },
      { provider: 'lab', modelId: 'big', name: 'big', reasoning: true },
    ],
  },
  configuration: { model: { provider: 'offline', modelId: 'echo' }, thinkingLevel: 'off' },
  refresh: { status: 'done' },
  ...patch,
});

describe('model text', () => {
  it('lists each model as provider/modelId — name, marks the selected one, and leaves out a name that only repeats the id', () => {
    expect(modelChoices(state())).toEqual(['offline/echo — Offline echo  (current)', 'lab/big']);
  });

  it('says how to add the key of a model whose provider has none', () => {
    const catalog = {
      revision: 2,
      availableModels: [
        { provider: 'anthropic', modelId: 'claude', name: 'Claude', reasoning: true, keyMissing: true as const },
      ],
    };
    expect(modelChoices(state({ catalog }))).toEqual(['anthropic/claude — Claude  (no key: /login)']);
    const selected = state({
      catalog,
      configuration: { model: { provider: 'anthropic', modelId: 'claude' }, thinkingLevel: 'high' },
    });
    expect(modelChoices(selected)).toEqual(['anthropic/claude — Claude  (no key: /login) (current)']);
  });

  it("adds the session's tokens, cost and how full the context is to the footer once an answer reported usage", () => {
    const usage = {
      input: 1_500,
      output: 12,
      cacheRead: 120_000,
      cacheWrite: 1_200,
      cost: 0.0832,
      contextTokens: 25_000,
    };
    const windowed = state({
      catalog: {
        revision: 1,
        availableModels: [
          { provider: 'offline', modelId: 'echo', name: 'e', reasoning: false, contextWindow: 200_000 },
        ],
      },
    });
    expect(footerText(windowed, usage)).toBe(
      'offline/echo · thinking off · ↑1.5k ↓12 R120k W1.2k · $0.083 · 12.5%/200k',
    );
    expect(footerText(state(), usage)).toBe(
      'offline/echo · thinking off · ↑1.5k ↓12 R120k W1.2k · $0.083 · context 25k',
    );
    expect(footerText(state(), { ...usage, cost: 0, contextTokens: null })).toBe('offline/echo · thinking off');
    expect(footerText(state(), { ...usage, cost: 0 })).not.toContain('$');
  });

  it('makes the footer line again only when the model state or the usage is another value', () => {
    let styled = 0;
    const line = footerLine((text) => {
      styled += 1;
      return `[${text}]`;
    });
    const shown = state();
    const usage = { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, cost: 0, contextTokens: 10 };
    expect(line(shown, usage)).toBe('[offline/echo · thinking off · ↑1 ↓2 R0 W0 · context 10]');
    expect(line(shown, usage)).toBe('[offline/echo · thinking off · ↑1 ↓2 R0 W0 · context 10]');
    expect(styled).toBe(1);
    expect(line(shown, { ...usage, output: 3 })).toBe('[offline/echo · thinking off · ↑1 ↓3 R0 W0 · context 10]');
    expect(line(state({ configuration: { model: null, thinkingLevel: 'off' } }), usage)).toBe(
      '[no model · thinking off · ↑1 ↓2 R0 W0 · context 10]',
    );
    expect(line(shown)).toBe('[offline/echo · thinking off]');
    expect(styled).toBe(4);
  });

  it('notes under the picker title a running refresh, the warning of the last one, and a catalogue that changed', () => {
    expect(pickerNote(state(), state())).toEqual([]);
    expect(pickerNote(state(), state({ refresh: { status: 'refreshing' } }))).toEqual(['refreshing…']);
    expect(
      pickerNote(
        state(),
        state({ refresh: { status: 'warning', errors: { 'models.json': 'not JSON', lab: 'HTTP 401' } } }),
      ),
    ).toEqual(['warning: models.json: not JSON; lab: HTTP 401']);
    const shown = state();
    const sameModels = state({ catalog: { ...shown.catalog, revision: 2 } });
    expect(pickerNote(shown, sameModels)).toEqual([]);
    const more = state({
      catalog: {
        revision: 3,
        availableModels: [
          ...shown.catalog.availableModels,
          { provider: 'lab', modelId: 'new', name: 'new', reasoning: false },
        ],
      },
    });
    expect(pickerNote(shown, more)).toEqual(['The catalogue changed while this was open: pick again to see it']);
  });

  it('shows the model and its thinking level in the footer, and a refresh while it runs', () => {
    expect(footerText(state())).toBe('offline/echo · thinking off');
    const thinking = state({
      configuration: { model: { provider: 'lab', modelId: 'big' }, thinkingLevel: 'high' },
      refresh: { status: 'refreshing' },
    });
    expect(footerText(thinking)).toBe('lab/big · thinking high · refreshing models…');
    expect(footerText(state({ configuration: { model: null, thinkingLevel: 'off' } }))).toBe('no model · thinking off');
  });

  it('turns control characters a server put in a model name into spaces', () => {
    expect(printable('evil\x1b[2Jname\nnext')).toBe('evil [2Jname next');
  });
});
