import { rename, writeFile } from 'node:fs/promises';

/** The providers a generated catalogue is spread over, as a user combining a few servers' lists would write it. */
export const CATALOG_PROVIDERS = ['alpha', 'beta', 'gamma'] as const;

/** What an edited catalogue's model names end with. */
export const EDITED = ' (edited)';

/**
 * The text of a models.json listing `count` models over three providers at `baseUrl`, about 80 bytes per model
 * (the soak's file: 60,000 models in 4.5 MB): `{"id":"v7/m-12345","name":"V7 Model 12345","contextWindow":131072}`.
 * `edited`: the same models, each name ending with EDITED (a user's edit of a loaded catalogue).
 */
export function catalogFileText(count: number, baseUrl: string, edited = false): string {
  const perProvider = Math.ceil(count / CATALOG_PROVIDERS.length);
  const providers: Record<string, unknown> = {};
  CATALOG_PROVIDERS.forEach((id, index) => {
    const first = index * perProvider;
    const size = Math.max(0, Math.min(perProvider, count - first));
    if (size === 0) return;
    const models = Array.from({ length: size }, (_, offset) => {
      const n = first + offset;
      return { id: `v${n % 40}/m-${n}`, name: `V${n % 40} Model ${n}${edited ? EDITED : ''}`, contextWindow: 131_072 };
    });
    providers[id] = { baseUrl, models };
  });
  return JSON.stringify({ providers });
}

/** Replaces the file as an editor does (write a temporary file, rename it over), so the watcher sees one change. */
export async function replaceFile(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, path);
}
