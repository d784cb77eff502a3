export type { ConsumingInteractions, ConsumingPluginContext } from './consuming-context';
export {
  SESSION_STATUSES,
  type CodingAgentCoordinatorPluginContext,
  type CoordinatorFacet,
  type FleetPluginScope,
  type FleetRecordChange,
  type FleetProcesses,
  type FleetRecords,
  type FleetSessionFiles,
  type NewSessionRecord,
  type SessionFileOrigin,
  type SessionRecord,
  type SessionStatus,
} from './coordinator-context';
export {
  requireFleetCaller,
  requireSessionIdentity,
  sessionCallerIdentity,
  userCallerIdentity,
  type FleetCaller,
} from './fleet-caller';
export {
  MAX_LIST_ITEMS,
  MAX_STORAGE_NAME_LENGTH,
  MAX_STORED_BYTES,
  Storage,
  isReservedNamespace,
  list,
  value,
  type BoundStorage,
  type ListAddress,
  type StorageService,
  type StoredValue,
  type ValueAddress,
} from './bound-storage';
export { definePlugin, type PluginDefinition } from './define-plugin';
export {
  MAX_PRESENCE_KIND_LENGTH,
  MAX_PRESENCE_NAME_LENGTH,
  Presence,
  type PresenceEntry,
  type PresenceService,
} from './presence-contract';
export { displayPath, type DisplayRoots } from './display-path';
export { pluginApiMismatch, type PluginApiDeclaration, type RunningPlugins } from './host-compatibility';
export { followState, type FollowedState } from './follow-state';
export { HOST_NAMES, type Facet, type HostContexts, type HostName } from './host-contexts';
export { PLUGIN_API_VERSION, checkApiVersion, pluginMetadataSchema, type PluginMetadata } from './plugin-metadata';
export type { InteractionRequestOptions, ProvidingInteractions, ProvidingPluginContext } from './providing-context';
export type {
  AgentLanePluginView,
  AgentNavigationPluginView,
  AgentPluginScope,
  CodingAgentSessionPluginContext,
  EntryProjector,
  HarnessEventOf,
  RunSettingsSource,
  ScopedContributions,
  SessionFacet,
  SessionHookName,
  SessionHooks,
  SessionIdentity,
  SessionPaths,
  SessionUpstream,
} from './session-context';
export { RunSettingsService } from './session-services';
export {
  SETTING_LAYERS,
  SettingsBackendService,
  type DeclaredSetting,
  type PluginSettings,
  type Setting,
  type SettingDeclaration,
  type SettingLayer,
  type SettingsBackend,
  type WritableSettingLayer,
} from './plugin-settings';
export {
  defineView,
  type OpenView,
  type View,
  type ViewDefinition,
  type ViewEnd,
  type ViewMessage,
  type ViewOptions,
  type ViewState,
} from './define-view';
export {
  MAX_SHOWN_COMPONENTS,
  MAX_VIEW_NAME_LENGTH,
  Views,
  addresses,
  viewDeltaSchema,
  viewRecordSchema,
  type ViewAudience,
  type ViewCloseReason,
  type ViewDelta,
  type ViewRecord,
  type ViewsService,
} from './view-contract';
export { ViewReplica } from './view-replica';
export type {
  InteractiveComponent,
  TuiKey,
  ViewComponent,
  ViewComponentContributions,
  ViewInstance,
  ViewWidget,
} from './tui-views';
export {
  Diagnostics,
  MAX_DIAGNOSTICS,
  MAX_DIAGNOSTIC_LENGTH,
  type DiagnosticEntry,
  type DiagnosticKind,
  type DiagnosticSeverity,
  type DiagnosticsService,
  type DiagnosticsState,
  type PluginDiagnostics,
} from './diagnostics-contract';
export {
  SessionPlugins,
  type PluginSetState,
  type ReloadOutcome,
  type SessionPluginsService,
} from './plugins-contract';
export { DEFAULT_UNATTENDED_TIMEOUT_MS, unattendedInteractions } from './unattended-interactions';
export type {
  CodingAgentTuiPluginContext,
  CommandContributions,
  CompletionContributions,
  CompletionItem,
  CompletionSource,
  DialogOptions,
  EditorAccess,
  KeybindingContributions,
  SessionAttachment,
  SlotContributions,
  SlotName,
  SubmitAction,
  ThemeColor,
  ToolRenderer,
  ToolRendererContributions,
  ToolResultView,
  TranscriptAccess,
  TuiCommand,
  TuiComponent,
  TuiFacilities,
  TuiTheme,
  TuiThemeColorValue,
  TuiThemeDefinition,
  TuiThemeStyle,
} from './tui-context';
export type {
  AfterToolHook,
  AgentMessage,
  AgentTool,
  AgentToolResult,
  AnyAgentTool,
  BeforeModelRequestHook,
  BeforeToolHook,
  HarnessEvent,
  ModelProvider,
  ModelRequestInfo,
  ModelRequestRewrite,
  ModelSpec,
  ProviderEvent,
  ProviderRequest,
  SessionEntry,
  SessionShutdownHook,
  SessionShutdownInfo,
  SessionStartHook,
  SessionStartInfo,
  SessionTree,
  TextPart,
  ThinkingPart,
  ThinkingLevel,
  ToolCallInfo,
  ToolCallResult,
  ToolResultRewrite,
  ToolCallStep,
  UserMessage,
} from '@pi/agent-contract';
export { TOOL_CALL_STEP } from '@pi/agent-contract';
export {
  BACKGROUND_CONTEXT,
  createContextKey,
  withAbortSignal,
  withContextValue,
  withTelemetryContext,
  type Context,
  type ContextKey,
} from '@pi/context';
export type { JsonObject, JsonValue } from '@pi/json';
export type { PluginLifecycleScope } from '@pi/kernel';
export type { Draft } from '@pi/registry';
export { z } from 'zod';
export {
  CLIENT_ID,
  CALLER_IDENTITY,
  RemoteError,
  defineInteraction,
  defineLocalService,
  defineRemoteService,
  remote,
  type CallerIdentity,
  type ConnectionState,
  type EventProjection,
  type ProjectionKey,
  type RemoteViewer,
  type StateProjection,
  type Interaction,
  type LocalService,
  type MutableRemoteEvents,
  type MutableRemoteState,
  type ObjectExposure,
  type RemoteEvents,
  type RemoteService,
  type RemoteState,
} from '@pi/remote';
