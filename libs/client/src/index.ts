export {
  connect,
  type AddressOptions,
  type ClientBehaviour,
  type ConnectOptions,
  type DiscoveryOptions,
  type PiClient,
} from './connect';
