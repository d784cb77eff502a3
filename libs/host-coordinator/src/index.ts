export { coordinatorAuthentication } from './coordinator-authentication';
export {
  startCoordinatorHost,
  type CoordinatorHost,
  type CoordinatorHostError,
  type CoordinatorHostOptions,
} from './coordinator-host';
export { sessionCredentials, type SessionCredentials } from './session-credentials';
export type { SessionProcessControl } from './fleet';
export { createSessionControl, type SessionControlSide } from './session-control';
export {
  gatewaySessionId,
  sessionGateway,
  type ConnectedSession,
  type LocalSession,
  type SessionGatewayOptions,
} from './session-gateway';
