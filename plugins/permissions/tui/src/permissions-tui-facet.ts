import type { Facet } from '@pi/plugin-api';
import { ConfirmInteraction, PERMISSIONS_PLUGIN_ID } from '@pi/permissions';
import { confirmInTerminal } from './confirm-dialog';

/** The manifest id this facet answers to. */
export const pluginId = PERMISSIONS_PLUGIN_ID;

/**
 * The TUI facet of @pi/permissions: it answers the session's ConfirmInteraction with a dialog. It knows nothing of
 * tools or grants; the session decides what a decision allows and says so in the request.
 */
export const permissionsTuiFacet: Facet<'tui'> = (context) => {
  context.interactions.handle(ConfirmInteraction, confirmInTerminal(context.ui));
};
