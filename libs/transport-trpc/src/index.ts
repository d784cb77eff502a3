export { tokenAuthentication, type Authenticate, type ConnectionParams } from './authentication';
export { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from './connection-limits';
export { DEFAULT_HEARTBEAT, type HeartbeatWindow } from './heartbeat';
export {
  PROTOCOL_VERSION,
  UNDECLARED_PROTOCOL,
  VERSION_MISMATCH,
  type HelloAnswer,
  type HelloPlugin,
  type HostHello,
} from './hello';
export { rpcLink } from './link';
export { loopbackFactory } from './loopback';
export { DEFAULT_RECONNECT, type ReconnectPolicy } from './reconnect';
export { createRpcClient, type RpcClient } from './rpc-client';
export { RpcConnection, type ConnectionParamsSource, type RpcConnectionOptions } from './rpc-connection';
export {
  DEFAULT_KEEP_ALIVE,
  createRpcHost,
  type ConnectionListener,
  type RpcHost,
  type RpcHostOptions,
} from './rpc-host';
export type { ServerSocket, SocketAcceptor } from './server-socket';
export { isSocketAnswering, isSocketFile } from './socket-probe';
export { TrpcChannel } from './trpc-channel';
export {
  hostTokens,
  type HostRouter,
  type HostTokens,
  type ServiceCallInput,
  type ServiceCallOutput,
  type ServiceRouterRecord,
  type ServiceWatchFrame,
} from './typed-router';
export type { RpcRouter } from './router';
export { CERTIFICATE_NOT_TRUSTED, webSocketFactory, type ConnectAddress } from './websocket-client';
export { webSocketUrlProblem } from './websocket-url';
export {
  DEFAULT_RELAY_PARAMS_WAIT_MS,
  relayAdmission,
  relayWebSocket,
  type RelayAdmission,
  type RelayOptions,
  type RelayRoute,
  type RelayTarget,
} from './websocket-relay';
export { listenTlsFromFiles, parseTlsListenFlags, type TlsListenFiles } from './tls-listen';
export {
  DEFAULT_MAX_PAYLOAD,
  listenWebSocket,
  type ListenAddress,
  type ListenError,
  type TlsIdentity,
  type WebSocketListener,
} from './websocket-server';
export { CLOSE_CODES, NOT_AUTHORIZED_REASON, type SocketFactory, type WireSocket } from './wire-socket';
