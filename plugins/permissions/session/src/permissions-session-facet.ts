import { PERMISSIONS_PLUGIN_ID } from '@pi/permissions';
import { guardedTool } from './guarded-tool';
import { parsePermissionConfig } from './permission-config';
import { createPermissionGate } from './permission-gate';
import { unattendedInteractions, type SessionFacet } from '@pi/plugin-api';

/** The manifest id this facet answers to. */
export const pluginId = PERMISSIONS_PLUGIN_ID;

/** The tools that change files or run commands, which a call of needs the user's yes. */
export const GUARDED_TOOLS = ['bash', 'write', 'edit'] as const;

/**
 * The session facet of @pi/permissions: one contribution wrapping each guarded tool that a plugin listed before
 * this one contributed (a missing one is the registry's warning, and nothing to guard). Removing the plugin
 * removes the contribution and the rebuild leaves the tools exactly as their plugins made them. `allow-all`
 * contributes nothing at all.
 */
export const permissionsSessionFacet: SessionFacet = (context) => {
  const { mode, timeoutMs, unattendedTimeoutMs } = parsePermissionConfig(context.config);
  if (mode === 'allow-all') return;
  // Created once per facet, so grants survive rebuilds and end with the session process. With no presentation
  // attached, a confirmation waits only `unattendedTimeoutMs` for one before the call is denied.
  const interactions = unattendedInteractions(context, unattendedTimeoutMs);
  const gate = createPermissionGate({ mode, timeoutMs, interactions });
  context.tools.add((draft) => {
    for (const name of GUARDED_TOOLS) draft.wrap(name, (inner) => guardedTool(name, inner, gate));
  });
};
