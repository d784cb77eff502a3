export {
  connect,
  type AddressOptions,
  type ClientBehaviour,
  type ConnectOptions,
  type DiscoveryOptions,
} from './connect';
export type { FoundSession, PiClient } from './pi-client';
// What a tool needs besides `connect`, so that one package is enough: the session's tokens, contexts, errors.
export { sessionInteractions, sessionTokens, type SessionRouter, type SessionTokens } from '@pi/session-api';
export { BACKGROUND_CONTEXT, withAbortSignal, type Context } from '@pi/context';
export {
  REMOTE_ERROR_CODES,
  RemoteError,
  defineInteraction,
  defineRemoteService,
  isRemoteError,
  type CallResponse,
  type ConnectionState,
  type HostDescription,
  type Interaction,
  type JsonValue,
  type RemoteErrorCode,
  type RemoteEvents,
  type RemoteService,
  type RemoteState,
  type WatchFrame,
} from '@pi/remote';
