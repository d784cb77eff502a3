import { THINKING_LEVELS, type ModelSpec, type ThinkingLevel } from '@pi/providers-builtin';

/** off → low → high → off. */
export function nextThinkingLevel(level: ThinkingLevel): ThinkingLevel {
  const index = THINKING_LEVELS.indexOf(level);
  return THINKING_LEVELS[(index + 1) % THINKING_LEVELS.length] ?? 'off';
}

/** The level a run uses: the preferred one for a reasoning model, `off` for any other (or for no model). */
export function effectiveThinkingLevel(model: ModelSpec | undefined, preferred: ThinkingLevel): ThinkingLevel {
  return model?.reasoning === true ? preferred : 'off';
}
