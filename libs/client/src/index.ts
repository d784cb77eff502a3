export { connect, type ConnectOptions, type PiClient } from './connect';
