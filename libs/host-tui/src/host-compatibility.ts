import { PLUGIN_API_VERSION, pluginApiMismatch, type PluginApiDeclaration } from '@pi/plugin-api';
import type { HelloAnswer } from '@pi/transport-trpc';

/**
 * What a TUI accepts of the session it attaches to (pass it as `acceptHost` to `createRpcClient`): a session of
 * another plugin API major, or running a plugin built for another major, is refused at the hello with one line naming
 * it, instead of at the first contract that differs. Given the TUI's own plugins (`own`), a plugin whose session half
 * and TUI half were built for different majors is refused too.
 */
export function acceptSessionHost(hello: HelloAnswer, own: readonly PluginApiDeclaration[] = []): string | null {
  return pluginApiMismatch(hello, { pluginApi: PLUGIN_API_VERSION, plugins: own });
}
