import { permissionsSessionFacet } from './permissions-session-facet';

export { describeCall, type CallDescription } from './call-description';
export { deniedResult } from './denied-result';
export { guardedTool } from './guarded-tool';
export {
  PERMISSION_MODES,
  parsePermissionConfig,
  type PermissionConfig,
  type PermissionMode,
} from './permission-config';
export { createPermissionGate, type PermissionGate, type Verdict } from './permission-gate';
export { GUARDED_TOOLS, permissionsSessionFacet, pluginId } from './permissions-session-facet';
export { SessionGrants, grantKey, sessionGrantScope } from './session-grants';

/** The session host imports the module the contract's "pi" field names and runs its default export. */
export default permissionsSessionFacet;
