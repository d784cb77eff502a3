export { type ConnectionState, type RemoteChannel, type WatchObserver } from './channel';
export { RemoteConsumer, type Lease } from './consumer';
export { CALLER_IDENTITY, CLIENT_ID, type CallerIdentity } from './context-keys';
export { describeExposure, describeHost, describeInteraction, hostDescriber, toJsonSchema } from './describe';
export {
  JSON_SCHEMA_DIALECT,
  hostDescriptionSchema,
  type ExposureDescription,
  type HostDescription,
  type InteractionDescription,
  type JsonSchema,
  type MethodDescription,
  type ResultDescription,
  type ServiceDescription,
} from './description';
export { ConnectionEndpoint } from './endpoint';
export {
  DEFAULT_ENDPOINT_LIMITS,
  type EndpointLimits,
  type EndpointOptions,
  type EndpointStats,
  type WatchEnd,
} from './endpoint-options';
export { ERROR_QUOTE_MAX, MAX_ERROR_MESSAGE_LENGTH, clipForError, quoteForError } from './error-text';
export {
  REMOTE_ERROR_CODES,
  RemoteError,
  isRemoteError,
  isRemoteErrorEnvelope,
  toRemoteError,
  type RemoteErrorCode,
  type RemoteErrorEnvelope,
} from './errors';
export { createRemoteEvents, type AuthoritativeEvents, type EmittedEvent, type RemoteEventsOptions } from './events';
export {
  remote,
  type AnyExposure,
  type EventKeys,
  type EventValue,
  type MethodArgs,
  type MethodKeys,
  type MethodResult,
  type MethodExposure,
  type ObjectExposure,
  type RemoteResult,
  type Schema,
  type StateKeys,
  type StateValue,
} from './exposure';
export { DEFAULT_INTERACTION_TIMEOUT_MS, InteractionBroker } from './interaction-broker';
export { InteractionHandlers } from './interaction-handlers';
export {
  JSON_VIOLATIONS,
  checkJson,
  detachJson,
  isJsonValue,
  jsonEquals,
  type JsonObject,
  type JsonPrimitive,
  type JsonValue,
  type JsonViolation,
  type JsonViolationKind,
} from '@pi/json';
export type {
  CallRequest,
  CallResponse,
  CellSnapshot,
  InteractionFrame,
  InteractionReply,
  Target,
  WatchFrame,
} from './protocol';
export type { OutboundStream } from './outbound-frames';
export { runListener } from './delivery';
export { SETTLED_REFERENCE_GRACE_MS } from './references';
export { releaseRemote } from './remote-object';
export { ServiceRegistrationError, ServiceRegistry, type ProvidedService } from './service-registry';
export { createRemoteState, type AuthoritativeState, type RemoteStateOptions, type StateChange } from './state';
export type {
  EventListener,
  MutableRemoteEvents,
  MutableRemoteState,
  RemoteEvents,
  RemoteState,
  StateListener,
  TypedEvent,
} from './state-types';
export {
  defineInteraction,
  defineLocalService,
  defineRemoteService,
  type Interaction,
  type LocalService,
  type RemoteService,
  type ServiceToken,
} from './tokens';
export { checkCallArguments } from './validation';
export { viewerOf, type EventProjection, type ProjectionKey, type RemoteViewer, type StateProjection } from './viewer';
