import { Accounts } from '@pi/accounts';
import { Chat, Tree } from '@pi/chat';
import { Git } from '@pi/git';
import { ConfirmInteraction } from '@pi/permissions';
import { Models } from '@pi/providers-builtin';
import { Diagnostics, Presence, SessionPlugins, Storage, Views } from '@pi/plugin-api';
import { PromptResources } from '@pi/prompt-resources';
import { SessionPicker } from '@pi/session-directory';
import { Preferences, SettingsCatalog } from '@pi/settings';
import { SystemPrompt } from '@pi/system-prompt';
import { ProjectFiles } from '@pi/tools-core';
import { hostTokens, type HostRouter } from '@pi/transport-trpc';

/**
 * The remote services a session serves with the built-in manifest, keyed by service id (`views`, `diagnostics`,
 * `plugins`, `presence` and `storage` are the host's own, served by every session). A session started with
 * another manifest serves other services: `$rpc.describe` (or `pi services`) says what a running one serves.
 */
export const sessionTokens = hostTokens({
  accounts: Accounts,
  chat: Chat,
  diagnostics: Diagnostics,
  git: Git,
  models: Models,
  plugins: SessionPlugins,
  preferences: Preferences,
  presence: Presence,
  'project-files': ProjectFiles,
  'prompt-resources': PromptResources,
  'session-picker': SessionPicker,
  'settings-catalog': SettingsCatalog,
  storage: Storage,
  'system-prompt': SystemPrompt,
  tree: Tree,
  views: Views,
});

export type SessionTokens = typeof sessionTokens;

/**
 * The built-in session's router, for a stock tRPC client: `createTRPCClient<SessionRouter>(…)` types
 * `models.select.mutate({ a: [model], c })`, its `{ value }` output and `chat.$watch` frames.
 *
 * - Input of `<service>.<method>`: `{ a, c, t? }`. `a` is the method's arguments in order, as JSON (the
 *   `Context` parameter is not sent); `c` is a call id of 1–64 characters, unique among this connection's calls
 *   in flight (`$rpc.cancel({ c })` aborts it); `t` is an optional W3C carrier `{ traceparent?, tracestate? }`.
 * - Output: `{ value }` with the method's result, `{}` for a method that returns nothing, `{ ref }` for a
 *   result that is a live object (call it with `$rpc.invoke`, watch it with `$rpc.watch`, free it with
 *   `$rpc.release`).
 * - Errors are `TRPCClientError`s with tRPC's code in `err.data.code` (`BAD_REQUEST` for `invalid_argument`,
 *   `NOT_FOUND`, `FORBIDDEN`, `TIMEOUT`, `CLIENT_CLOSED_REQUEST` for `cancelled`, …), `err.data.httpStatus`, and
 *   pi's own error in `err.data.remote` (`{ code, message, data? }`).
 *
 * ```ts
 * const { value } = await client.chat.prompt.mutate({ a: [{ text: 'hello' }], c: 'prompt-1' });
 * try {
 *   await client.models.select.mutate({ a: [{ provider: 'offline', modelId: 'nope' }], c: 'select-1' });
 * } catch (err) {
 *   // NOT_FOUND, from the service's `unknown_model`; a malformed argument would be BAD_REQUEST.
 *   if (err instanceof TRPCClientError && err.data?.code === 'NOT_FOUND') console.error(err.data.remote.message);
 * }
 * ```
 *
 * docs/protocol.md has every frame; `$rpc.describe` says what a running session serves.
 */
export type SessionRouter = HostRouter<SessionTokens>;

/**
 * The interactions a built-in session may ask a connected client to answer, keyed by id (a question is a view of
 * the `views` service since issue 22, not an interaction).
 */
export const sessionInteractions = Object.freeze({ 'tool-confirm': ConfirmInteraction });
