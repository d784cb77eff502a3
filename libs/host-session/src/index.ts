export { absentUpstream } from './absent-upstream';
export { resolveSessionFacets, type ResolveError, type ResolvedSessionFacet } from './facet-resolution';
export type {
  AgentLanePluginView,
  AgentPluginScope,
  CodingAgentSessionPluginContext,
  RunSettingsSource,
  ScopedContributions,
  ScopedEvents,
  ScopedHooks,
  SessionFacet,
  SessionIdentity,
  SessionInteractions,
  SessionPaths,
  SessionUpstream,
} from './session-context';
export {
  startSessionHost,
  type SessionHost,
  type SessionHostDiagnostics,
  type SessionHostError,
  type SessionHostOptions,
} from './session-host';
export { RunSettingsService } from './tokens';
