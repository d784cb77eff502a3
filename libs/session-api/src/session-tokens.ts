import { Accounts } from '@pi/accounts';
import { Chat, Tree } from '@pi/chat';
import { Git } from '@pi/git';
import { ConfirmInteraction } from '@pi/permissions';
import { Models } from '@pi/providers-builtin';
import { Diagnostics, Views } from '@pi/plugin-api';
import { SessionPicker } from '@pi/session-directory';
import { Preferences, SettingsCatalog } from '@pi/settings';
import { SystemPrompt } from '@pi/system-prompt';
import { ProjectFiles } from '@pi/tools-core';
import { hostTokens, type HostRouter } from '@pi/transport-trpc';

/**
 * The remote services a session serves with the built-in manifest, keyed by service id (`views` and `diagnostics` are the
 * host's own, served by every session). A session started with
 * another manifest serves other services: `$rpc.describe` (or `pi services`) says what a running one serves.
 */
export const sessionTokens = hostTokens({
  accounts: Accounts,
  chat: Chat,
  diagnostics: Diagnostics,
  git: Git,
  models: Models,
  preferences: Preferences,
  'project-files': ProjectFiles,
  'session-picker': SessionPicker,
  'settings-catalog': SettingsCatalog,
  'system-prompt': SystemPrompt,
  tree: Tree,
  views: Views,
});

export type SessionTokens = typeof sessionTokens;

/**
 * The built-in session's router, for a stock tRPC client: `createTRPCClient<SessionRouter>(…)` types
 * `models.select.mutate({ a: [model], c })`, its `{ value }` output and `chat.$watch` frames.
 */
export type SessionRouter = HostRouter<SessionTokens>;

/**
 * The interactions a built-in session may ask a connected client to answer, keyed by id (a question is a view of
 * the `views` service since issue 22, not an interaction).
 */
export const sessionInteractions = Object.freeze({ 'tool-confirm': ConfirmInteraction });
