import { z } from 'zod';
import { CredentialStoreError, providerIdSchema } from '@pi/accounts';

/**
 * The credentials file: `{ "version": 1, "providers": { "<provider id>": { "apiKey": "<key>" } } }`.
 * Versioned so a later credential kind (OAuth tokens) can be added without guessing at old files.
 */
const documentSchema = z.object({
  version: z.literal(1),
  providers: z.record(providerIdSchema, z.object({ apiKey: z.string().min(1) })),
});

export type CredentialsDocument = z.infer<typeof documentSchema>;

export function emptyDocument(): CredentialsDocument {
  return { version: 1, providers: {} };
}

/**
 * Parses the file's text. The messages describe what is wrong without quoting the text: a JSON.parse message
 * would carry a snippet of the file, which may be a key.
 */
export function parseCredentialsDocument(text: string): CredentialsDocument {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new CredentialStoreError('unreadable', 'The credentials file is not valid JSON');
  }
  const parsed = documentSchema.safeParse(json);
  if (!parsed.success)
    throw new CredentialStoreError('unreadable', 'The credentials file is not a version 1 credentials document');
  return parsed.data;
}

export function serializeCredentialsDocument(document: CredentialsDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
