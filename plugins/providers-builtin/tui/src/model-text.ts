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

export function pickerTitle(state: ModelsState): string {
  const note = refreshNote(state.refresh);
  return note === undefined ? 'Select a model' : `Select a model · ${note}`;
}

/** The footer's line: `provider/modelId · thinking <level>`, plus the refresh when one is running. */
export function footerText(state: ModelsState): string {
  const model = state.configuration.model === null ? 'no model' : modelLabel(state.configuration.model);
  const refreshing = state.refresh.status === 'refreshing' ? ' · refreshing models…' : '';
  return `${model} · thinking ${state.configuration.thinkingLevel}${refreshing}`;
}
