import type { ConfirmResponse, SessionGrantScope } from '@pi/permissions';

type Decision = ConfirmResponse['decision'];

/**
 * The dialog's rows, numbered the same in every confirmation: 1 allows once, 2 allows for the session, 3 denies.
 * Row 2 says what it covers. No row holds any other digit or any text of the call, so typing a number filters the
 * list down to exactly that row.
 */
export function confirmChoices(scope: SessionGrantScope): readonly [string, string, string] {
  const covers = scope === 'command' ? 'this exact command' : 'this tool, any arguments';
  return ['1. Allow once', `2. Allow for this session (${covers})`, '3. Deny'];
}

const DECISIONS: readonly Decision[] = ['allow_once', 'allow_session', 'deny'];

/** The decision a picked row stands for; anything else (Esc, a closed dialog) is a deny. */
export function decisionOf(scope: SessionGrantScope, choice: string | undefined): Decision {
  const index = choice === undefined ? -1 : confirmChoices(scope).indexOf(choice);
  return DECISIONS[index] ?? 'deny';
}
