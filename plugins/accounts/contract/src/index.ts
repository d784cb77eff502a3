export { ACCOUNTS_PLUGIN_ID } from './plugin-id';
export { PROVIDER_ID_PATTERN, isProviderId, providerIdSchema } from './provider-id';
export {
  CREDENTIAL_STORE_ERROR_CODES,
  CredentialStoreError,
  Credentials,
  type CredentialStore,
  type CredentialStoreErrorCode,
} from './credential-store';
export {
  Accounts,
  KeyEntryInteraction,
  MAX_API_KEY_LENGTH,
  MAX_OAUTH_PASTE_LENGTH,
  OAuthInteraction,
  accountsStateSchema,
  apiKeySchema,
  type AccountSummary,
  type AccountsService,
  type AccountsState,
  type KeyEntryRequest,
  type KeyEntryResponse,
  type LoginOutcome,
  type OAuthRequest,
  type OAuthResponse,
} from './accounts-service';
