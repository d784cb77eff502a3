import { readFile } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import { writeFileAtomic } from '@pi/atomic-file';
import { parseManifest } from '@pi/kernel';
import type { PackageError } from './package-error';

/** A scope's `plugins.json` as written: entries kept as they are (a reference, or `{ id, config }`). */
export type ManifestEntryJson = string | { readonly id: string; readonly config?: unknown };

/** The entries of a scope manifest; none when the file does not exist. A file that is not a manifest is an error. */
export async function readScopeManifest(file: string): Promise<Result<ManifestEntryJson[], PackageError>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (thrown) {
    if ((thrown as { code?: unknown }).code === 'ENOENT') return ok([]);
    return err({ code: 'bad_manifest', message: `Cannot read ${file}: ${String(thrown)}` });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (thrown) {
    return err({
      code: 'bad_manifest',
      message: `${file} is not valid JSON (${(thrown as Error).message}); fix it first`,
    });
  }
  const parsed = parseManifest(json);
  if (parsed.isErr()) return err({ code: 'bad_manifest', message: `${file}: ${parsed.error.message}; fix it first` });
  return ok((json as { plugins: ManifestEntryJson[] }).plugins);
}

export function entryId(entry: ManifestEntryJson): string {
  return typeof entry === 'string' ? entry : entry.id;
}

export async function writeScopeManifest(file: string, entries: readonly ManifestEntryJson[]): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify({ plugins: entries }, null, 2)}\n`, {
    fileMode: 0o644,
    directoryMode: 0o755,
  });
}
