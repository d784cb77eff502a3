import type { ConfirmRequest, ConfirmResponse } from '@pi/permissions';
import type { Context, SlotContributions, TuiFacilities } from '@pi/plugin-api';
import { confirmChoices, decisionOf } from './confirm-choices';
import { confirmTitle, confirmView } from './confirm-view';

/**
 * Answers the session's ConfirmInteraction with the terminal's select dialog (the host's arming delay keeps keys
 * typed before it opened from answering it) and, under it, the whole call. Esc, or the dialog closing because the
 * session gave up on the request, answers `deny`.
 */
export function confirmInTerminal(ui: TuiFacilities, slots: SlotContributions) {
  return async (request: ConfirmRequest, context: Context): Promise<ConfirmResponse> => {
    const removeView = slots.add('status', confirmView(request, ui.theme));
    try {
      const choice = await ui.select(confirmTitle(request), confirmChoices(request.sessionGrant), {
        signal: context.abortSignal,
      });
      return { decision: decisionOf(request.sessionGrant, choice) };
    } finally {
      removeView();
    }
  };
}
