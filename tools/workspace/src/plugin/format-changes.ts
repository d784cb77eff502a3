import type { Tree } from '@nx/devkit';
import { type FormatConfig, type Oxfmtrc, format } from 'oxfmt';

/** The workspace's formatter settings: where `oxfmt --check` (the `format-check` target) reads them. */
export const FORMAT_CONFIG_FILE = '.oxfmtrc.json';

const FORMATTED = /\.(?:[cm]?[jt]s|json)$/;

/**
 * Formats every file the generator wrote or changed as `npm run format` would, with the tree's `.oxfmtrc.json`
 * (oxfmt's defaults when there is none), so `format-check` passes right after `nx g`. Nx's own `formatFiles` would
 * use Prettier, which formats a few constructs differently. A file oxfmt cannot parse is a broken template: it throws.
 */
export async function formatChanges(tree: Tree): Promise<void> {
  const options = formatOptions(tree);
  const changed = tree.listChanges().filter((change) => change.type !== 'DELETE' && FORMATTED.test(change.path));
  for (const { path, content } of changed) {
    const result = await format(path, content?.toString('utf-8') ?? '', options);
    const errors = result.errors.filter((error) => error.severity === 'Error');
    if (errors.length > 0) {
      throw new Error(`${path} could not be formatted: ${errors.map((error) => error.message).join('; ')}`);
    }
    tree.write(path, result.code);
  }
}

function formatOptions(tree: Tree): FormatConfig {
  const text = tree.read(FORMAT_CONFIG_FILE, 'utf-8');
  if (text === null) return {};
  // Keys that say which files to format, not how.
  let config: Oxfmtrc & { $schema?: string };
  try {
    config = JSON.parse(text) as Oxfmtrc & { $schema?: string };
  } catch (error) {
    throw new Error(`${FORMAT_CONFIG_FILE} is not JSON: ${(error as Error).message}`);
  }
  const { $schema: _schema, ignorePatterns: _ignored, overrides: _overrides, ...options } = config;
  return options;
}
