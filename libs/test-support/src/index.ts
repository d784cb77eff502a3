export {
  KNOWN_MODELS,
  createCatalog,
  type HostCatalog,
  createIndex,
  createProbe,
  type ProbeLog,
} from './fixture-providers';
export {
  Ask,
  Catalog,
  Index,
  IndexJobExposure,
  Probe,
  Vault,
  type AskRequest,
  type AskResponse,
  type CatalogEvent,
  type CatalogService,
  type CatalogState,
  type IndexJob,
  type IndexProgress,
  type IndexService,
  type ModelRef,
  type ProbeService,
  type VaultService,
} from './fixture-services';
export {
  FIXTURE_TOKEN,
  TRANSPORTS,
  startRpcFixture,
  type FrameLog,
  type RpcFixture,
  type RpcFixtureOptions,
  type TransportKind,
} from './rpc-fixture';
export { eventually, nextValue } from './waiting';
export { messageOnceTaken, type ViewMessaging } from './restored-view';
export { serveHost, type HostTransport } from './host-transport';
export { remoteErrorOf } from './remote-expectations';
export { openRawChannel, type RawChannel } from './raw-channel';
export { wireViolations } from './wire-scan';
export { startReconnectingCatalog, type ReconnectingCatalog } from './reconnecting-catalog';
export { abortableContext } from './abortable-context';
export { loadedModules, moduleLogEnvironment } from './module-log';
export {
  createPiSandbox,
  killSandboxProcesses,
  readText,
  sandboxPids,
  sandboxProcesses,
  type PiSandbox,
  type PiSandboxOptions,
} from './pi-sandbox';
export {
  runProgram,
  startProgram,
  type ProgramExit,
  type ProgramOptions,
  type ProgramRun,
  type RunningProgram,
} from './pi-programs';
export { sandboxClients, type SandboxClients } from './sandbox-clients';
export {
  startAuthorizationServer,
  type AuthorizationServer,
  type DeviceAnswer,
  type ReceivedRequest,
} from './authorization-server';
