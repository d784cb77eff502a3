import { WebSocket } from 'ws';

/**
 * Cap'n Web compares `readyState` against the global `WebSocket.CONNECTING`, which Node 20 lacks; its
 * WebSocket transport works over `ws` once the global names `ws`'s class.
 */
export function installGlobalWebSocket(): void {
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;
}
