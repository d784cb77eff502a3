import {
  ACCOUNTS_PLUGIN_ID,
  Accounts,
  KeyEntryInteraction,
  OAuthInteraction,
  type AccountSummary,
  type KeyEntryResponse,
  type OAuthResponse,
} from '@pi/accounts';
import type { Facet } from '@pi/plugin-api';
import { openInBrowser } from './open-in-browser';

/** The manifest id this facet answers to. */
export const pluginId = ACCOUNTS_PLUGIN_ID;

/**
 * The TUI facet of @pi/accounts: `/login [provider]` asks the session to log in, and answers its key request with a
 * masked field, or its OAuth request with the address to open (in the browser too, where there is one) and a field
 * for the address the browser lands on (the key goes back only in that answer: never into the editor, its history or the transcript);
 * `/logout [provider]` forgets a stored key.
 */
export const accountsTuiFacet: Facet<'tui'> = (context) => {
  context.interactions.handle(KeyEntryInteraction, async (request, callContext): Promise<KeyEntryResponse> => {
    const key = await context.ui.input(
      `API key for ${request.provider}`,
      'paste the key (stored in the pi config directory, readable only by you); esc cancels',
      { masked: true, ...(callContext.abortSignal === undefined ? {} : { signal: callContext.abortSignal }) },
    );
    const trimmed = key?.trim() ?? '';
    return trimmed === '' ? { outcome: 'cancelled' } : { outcome: 'entered', key: trimmed };
  });

  context.interactions.handle(OAuthInteraction, async (request, callContext): Promise<OAuthResponse> => {
    const signal = callContext.abortSignal === undefined ? {} : { signal: callContext.abortSignal };
    const where = openInBrowser(request.url)
      ? 'Your browser should open this address (open it yourself if it does not):'
      : 'Open this address in a browser:';
    const title = `Sign in to ${request.provider}`;
    if (request.flow === 'authorization_code') {
      const pasted = await context.ui.input(title, 'paste the address here; esc cancels', {
        message: `${where}\n${request.url}\n\nSign in there, then paste the address the browser lands on (or the code it shows).`,
        ...signal,
      });
      const text = pasted?.trim() ?? '';
      return text === '' ? { outcome: 'cancelled' } : { outcome: 'pasted', text };
    }
    const minutes = Math.max(1, Math.round(request.expiresInSeconds / 60));
    const approved = await context.ui.confirm(
      title,
      `${where}\n${request.url}\n\nand enter the code  ${request.userCode}  there (valid for ${minutes} min). This closes by itself once ${request.provider} has your approval. Approved already?`,
      signal,
    );
    return approved ? { outcome: 'approved' } : { outcome: 'cancelled' };
  });

  const pickProvider = async (
    args: string,
    title: string,
    among: (providers: readonly AccountSummary[]) => AccountSummary[],
  ): Promise<string | undefined> => {
    const named = args.trim();
    if (named !== '') return named;
    const accounts = await context.use(Accounts);
    const choices = among(accounts.state.value.providers);
    if (choices.length === 0) return undefined;
    const label = (entry: AccountSummary) => `${entry.provider}${entry.configured ? '  (key stored)' : ''}`;
    const picked = await context.ui.select(title, choices.map(label));
    return choices.find((entry) => label(entry) === picked)?.provider;
  };

  context.commands.register({
    id: 'accounts.login',
    description: 'Sign in to a provider: its browser sign-in where it has one, else its API key in a masked field',
    slash: 'login',
    needsSession: true,
    async run(args, callContext) {
      // The offline provider needs no key; every other one may take one.
      const provider = await pickProvider(args, 'Log in to which provider?', (all) =>
        all.filter((entry) => entry.provider !== 'offline'),
      );
      if (provider === undefined) return;
      const accounts = await context.use(Accounts);
      const { outcome } = await accounts.login(provider, callContext);
      context.ui.notify(outcome === 'stored' ? `Key stored for ${provider}` : `Login to ${provider} cancelled`);
    },
  });
  context.commands.register({
    id: 'accounts.logout',
    description: "Forget a provider's stored API key",
    slash: 'logout',
    needsSession: true,
    async run(args, callContext) {
      const provider = await pickProvider(args, 'Log out of which provider?', (all) =>
        all.filter((entry) => entry.configured),
      );
      if (provider === undefined) return void context.ui.notify('No provider has a stored key');
      const accounts = await context.use(Accounts);
      await accounts.remove(provider, callContext);
      context.ui.notify(`Key removed for ${provider}`);
    },
  });
};
