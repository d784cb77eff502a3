export {
  connect,
  type AddressOptions,
  type ClientBehaviour,
  type ConnectOptions,
  type DiscoveryOptions,
} from './connect';
export type { FoundSession, PiClient } from './pi-client';
