import { ACCOUNTS_PLUGIN_ID } from '@pi/accounts';
import type { SessionFacet } from '@pi/plugin-api';
import { accountsSessionFacet } from './accounts-facet';

/** The manifest id this facet answers to. */
export const pluginId = ACCOUNTS_PLUGIN_ID;

export { CREDENTIALS_FILE_NAME, accountsSessionFacet } from './accounts-facet';
export { CREDENTIALS_DIRECTORY_MODE, CREDENTIALS_FILE_MODE, createFileCredentialStore } from './file-credential-store';

/** The facet a session host resolves for @pi/accounts. */
export const sessionFacet: SessionFacet = accountsSessionFacet;

export default sessionFacet;
