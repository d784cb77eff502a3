import type { ConfirmRequest, ConfirmResponse } from '@pi/permissions';
import type { Context, TuiFacilities } from '@pi/plugin-api';
import { confirmChoices, decisionOf } from './confirm-choices';
import { confirmTitle, confirmView } from './confirm-view';

/**
 * Answers the session's ConfirmInteraction with the terminal's select dialog (the host's arming delay keeps keys
 * typed before it opened from answering it), the whole call drawn in it between the title and the choices. Esc,
 * or the dialog closing because the session gave up on the request, answers `deny`.
 */
export function confirmInTerminal(ui: TuiFacilities) {
  return async (request: ConfirmRequest, context: Context): Promise<ConfirmResponse> => {
    const choice = await ui.select(confirmTitle(request), confirmChoices(request.sessionGrant), {
      signal: context.abortSignal,
      body: confirmView(request, ui.theme),
    });
    return { decision: decisionOf(request.sessionGrant, choice) };
  };
}
