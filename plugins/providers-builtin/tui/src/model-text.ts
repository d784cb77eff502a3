import type { SessionUsage } from '@pi/chat';
import { compactCount } from '@pi/terminal';
import type { ModelRef, ModelsState, RefreshStatus } from '@pi/providers-builtin';

/**
 * Text from the catalogue as the terminal may show it: model ids and names can come from a server's
 * `/models` answer, so control characters (escape sequences, line breaks) become spaces.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the control characters are replaced
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

/** `provider/modelId`, the form `/model` takes and the footer shows. */
export function modelLabel(model: ModelRef): string {
  return printable(`${model.provider}/${model.modelId}`);
}

export function sameModel(a: ModelRef | null, b: ModelRef): boolean {
  return a !== null && a.provider === b.provider && a.modelId === b.modelId;
}

/** Marks the selected model's row in the picker. */
export const CURRENT_MARK = '(current)';
/** Marks a model whose provider has no API key yet. */
export const NO_KEY_MARK = '(no key: /login)';

/**
 * One picker row per catalogue model, in catalogue order: `provider/modelId — name`, the selected one marked, and
 * one whose provider has no key saying how to add it.
 */
export function modelChoices(state: ModelsState): string[] {
  return state.catalog.availableModels.map((model) => {
    const name = printable(model.name).trim();
    const row = name === '' || name === model.modelId ? modelLabel(model) : `${modelLabel(model)} — ${name}`;
    const marks = [
      ...(model.keyMissing === true ? [NO_KEY_MARK] : []),
      ...(sameModel(state.configuration.model, model) ? [CURRENT_MARK] : []),
    ];
    return marks.length === 0 ? row : `${row}  ${marks.join(' ')}`;
  });
}

/** What the catalogue's refresh is doing, when it is worth saying: `refreshing…`, or the warning's sources. */
export function refreshNote(refresh: RefreshStatus): string | undefined {
  switch (refresh.status) {
    case 'refreshing':
      return 'refreshing…';
    case 'warning':
      return `warning: ${warningText(refresh.errors)}`;
    case 'idle':
    case 'done':
      return undefined;
  }
}

/** `source: message` per failed source (`models.json`, or a provider id), joined. */
export function warningText(errors: Record<string, string>): string {
  return Object.entries(errors)
    .map(([source, message]) => printable(`${source}: ${message}`))
    .join('; ');
}

export const PICKER_TITLE = 'Select a model';

/**
 * The picker's line under its title, from the state now (`current`): the refresh running or its warning, and once a
 * refresh has changed the catalogue the picker was opened on (`shown`), that reopening shows the new one.
 */
export function pickerNote(shown: ModelsState, current: ModelsState): string[] {
  const note = refreshNote(current.refresh);
  const changed =
    current.catalog !== shown.catalog &&
    modelChoices({ ...current, configuration: shown.configuration }).join('\n') !== modelChoices(shown).join('\n');
  return [
    ...(note === undefined ? [] : [note]),
    ...(changed ? ['The catalogue changed while this was open: pick again to see it'] : []),
  ];
}

/**
 * `footerText` through `style`, made again only when the model state or the usage is another value: both are replaced
 * when they change, never changed in place, and the footer is drawn every frame (one per streamed delta).
 */
export function footerLine(style: (text: string) => string): (state: ModelsState, usage?: SessionUsage) => string {
  let last: { state: ModelsState; usage: SessionUsage | undefined; line: string } | undefined;
  return (state, usage) => {
    if (last?.state !== state || last.usage !== usage) last = { state, usage, line: style(footerText(state, usage)) };
    return last.line;
  };
}

/**
 * The footer's line: `provider/modelId · thinking <level>`, the refresh when one is running, then the session's
 * usage when it has any: tokens in (↑), out (↓), read from (R) and written to (W) the prompt cache, the cost, and
 * how full the context of the latest request was against the selected model's window.
 */
export function footerText(state: ModelsState, usage?: SessionUsage): string {
  const model = state.configuration.model === null ? 'no model' : modelLabel(state.configuration.model);
  const refreshing = state.refresh.status === 'refreshing' ? ' · refreshing models…' : '';
  const line = `${model} · thinking ${state.configuration.thinkingLevel}${refreshing}`;
  if (usage === undefined || usage.contextTokens === null) return line;
  const tokens = `↑${compactCount(usage.input)} ↓${compactCount(usage.output)} R${compactCount(usage.cacheRead)} W${compactCount(usage.cacheWrite)}`;
  const cost = usage.cost > 0 ? ` · $${usage.cost.toFixed(usage.cost < 1 ? 3 : 2)}` : '';
  const selected = state.catalog.availableModels.find((candidate) => sameModel(state.configuration.model, candidate));
  const window = selected?.contextWindow;
  const context =
    window === undefined
      ? `context ${compactCount(usage.contextTokens)}`
      : `${((usage.contextTokens / window) * 100).toFixed(1)}%/${compactCount(window)}`;
  return `${line} · ${tokens}${cost} · ${context}`;
}

/** What the offline model does without a key: the coding prompts it turns into tool calls. */
const OFFLINE_PHRASES = [
  'read README.md',
  'list files in src',
  'find *.ts',
  'grep TODO',
  'run `ls -la`',
  'replace old with new in notes.txt',
];

/**
 * The welcome's word on models: which one answers and how to change it; with the offline model, that it is a
 * stand-in and the prompts it understands.
 */
export function welcomeText(state: ModelsState, keys: { picker: string; thinking: string }): string[] {
  const model = state.configuration.model;
  const current = model === null ? 'none selected' : modelLabel(model);
  const lines = [
    `Model: ${current} — ${keys.picker} picks another, ${keys.thinking} the thinking level; /login adds a provider's key (or set ANTHROPIC_API_KEY, OPENAI_API_KEY, …).`,
  ];
  if (model?.provider === 'offline') {
    lines.push(`The offline model needs no key or network; it understands: ${OFFLINE_PHRASES.join(' · ')}`);
  }
  return lines;
}
