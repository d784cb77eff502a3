export { ACCOUNTS_PLUGIN_ID } from './plugin-descriptor';
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
  accountsStateSchema,
  apiKeySchema,
  type AccountSummary,
  type AccountsService,
  type AccountsState,
} from './accounts-service';
