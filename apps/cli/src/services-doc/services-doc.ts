import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { describeDefaultSession } from './describe-session';
import { manifestTokens } from './manifest-tokens';
import { renderServicesDoc } from './render-markdown';

export const SERVICES_DOC = fileURLToPath(new URL('../../../../docs/services.md', import.meta.url));

/** docs/services.md as it should read now: rendered from a real default session, formatted as `npm test` checks. */
export async function generateServicesDoc(): Promise<string> {
  const [description, tokens] = await Promise.all([describeDefaultSession(), manifestTokens()]);
  const markdown = renderServicesDoc(description, tokens);
  return format(markdown, { ...(await resolveConfig(SERVICES_DOC)), filepath: SERVICES_DOC });
}

export async function currentServicesDoc(): Promise<string | undefined> {
  return readFile(SERVICES_DOC, 'utf8').catch(() => undefined);
}
