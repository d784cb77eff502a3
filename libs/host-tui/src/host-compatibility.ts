import { pluginApiMismatch } from '@pi/plugin-api';
import type { HelloAnswer } from '@pi/transport-trpc';

/**
 * What a TUI accepts of the session it attaches to (pass it as `acceptHost` to `createRpcClient`): a session of
 * another plugin API major is refused at the hello with one line, instead of at the first contract that differs.
 */
export function acceptSessionHost(hello: HelloAnswer): string | null {
  return pluginApiMismatch(hello.pluginApi);
}
