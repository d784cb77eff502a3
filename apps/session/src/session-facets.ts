import { sessionFacet as accounts } from '@pi/accounts-session';
import { sessionFacet as chat } from '@pi/chat-session';
import type { SessionFacet } from '@pi/host-session';
import { sessionFacet as providersBuiltin } from '@pi/providers-builtin-session';
import { sessionFacet as question } from '@pi/question-session';
import { sessionFacet as settings } from '@pi/settings-session';

/** This build's session facets by plugin id: session code only, so this process never loads presentation code. */
export const SESSION_FACETS: Readonly<Record<string, SessionFacet>> = {
  '@pi/settings': settings,
  '@pi/accounts': accounts,
  '@pi/providers-builtin': providersBuiltin,
  '@pi/chat': chat,
  '@pi/question': question,
};
