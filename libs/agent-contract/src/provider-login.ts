import { z } from 'zod';

const httpUrl = z.url({ protocol: /^https?$/, error: 'an http(s) URL' });
const clientId = z.string().min(1, 'a client id cannot be empty').max(256, 'at most 256 characters');
const scope = z.string().max(1024, 'at most 1,024 characters');

/**
 * How a person signs in to a provider instead of pasting a key (OAuth 2.0); what the flow yields is stored as the
 * provider's key. Declared here once: the catalogue's type and models.json's `login` check are this schema.
 *
 * - `authorization_code`: the browser goes to `authorizeUrl` with a PKCE challenge (RFC 7636, S256); the person
 *   pastes back the address they were sent to (or just its code). The `oauth2` dialect is RFC 6749 (`client_id`,
 *   `redirect_uri`, `scope` and `state` on the address; a form POST to `tokenUrl` answers `access_token`); the
 *   `openrouter` dialect is OpenRouter's key exchange (`callback_url`; a JSON POST answers `key`).
 * - `device_code` (RFC 8628): the person opens a short address and types a code there while the session polls.
 */
export const providerLoginSchema = z
  .discriminatedUnion('flow', [
    z.strictObject({
      flow: z.literal('authorization_code'),
      dialect: z.enum(['oauth2', 'openrouter']),
      authorizeUrl: httpUrl,
      tokenUrl: httpUrl,
      redirectUri: httpUrl,
      clientId: clientId.optional(),
      scope: scope.optional(),
    }),
    z.strictObject({
      flow: z.literal('device_code'),
      deviceAuthorizationUrl: httpUrl,
      tokenUrl: httpUrl,
      clientId,
      scope: scope.optional(),
    }),
  ])
  .superRefine((login, issues) => {
    if (login.flow === 'authorization_code' && login.dialect === 'oauth2' && login.clientId === undefined) {
      issues.addIssue({ code: 'custom', path: ['clientId'], message: 'the oauth2 dialect needs a client id' });
    }
  });

export type ProviderLogin = z.infer<typeof providerLoginSchema>;
export type AuthorizationCodeLogin = Extract<ProviderLogin, { flow: 'authorization_code' }>;
export type DeviceCodeLogin = Extract<ProviderLogin, { flow: 'device_code' }>;
