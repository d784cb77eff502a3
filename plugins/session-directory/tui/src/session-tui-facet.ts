import type { Facet } from '@pi/plugin-api';
import { SESSION_DIRECTORY_PLUGIN_ID } from '@pi/session-directory';
import { registerNameCommand } from './name-command';
import { registerSessionCommands } from './session-commands';

/** The manifest id this facet answers to. */
export const pluginId = SESSION_DIRECTORY_PLUGIN_ID;

/**
 * The TUI facet of @pi/session-directory: the session picker (`/sessions`), `/new`, `/name` and the session's title
 * in the footer, over the session's SessionPicker. It knows nothing of the coordinator: it shows the session's
 * redacted list, asks the session to create, remove, resume or rename, and asks the TUI application
 * (`context.session.switchTo`) to attach elsewhere.
 */
export const sessionDirectoryTuiFacet: Facet<'tui'> = (context) => {
  registerSessionCommands(context);
  registerNameCommand(context);
};
