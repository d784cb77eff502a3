import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { pluginMetadataSchema } from '@pi/plugin-api';
import { BUILTIN_PLUGINS_ROOT, DEFAULT_MANIFEST } from './builtin-plugins';

const require = createRequire(join(BUILTIN_PLUGINS_ROOT, 'package.json'));
const metadataOf = (id: string) =>
  pluginMetadataSchema.parse(JSON.parse(readFileSync(require.resolve(`${id}/package.json`), 'utf8')).pi);

it('the default manifest names every built-in once, in precedence order', () => {
  expect(DEFAULT_MANIFEST.plugins).toEqual([
    '@pi/settings',
    '@pi/accounts',
    '@pi/providers-builtin',
    '@pi/system-prompt',
    '@pi/chat',
    '@pi/question',
    '@pi/tools-core',
    // Wrappers nest in manifest order: permissions wraps the core tools, telemetry wraps both.
    '@pi/permissions',
    '@pi/tool-telemetry',
    '@pi/git',
    '@pi/session-directory',
    // Last: its skills list follows pi's system prompt, and its /template commands yield to every plugin's commands.
    '@pi/prompt-resources',
  ]);
});

it('every built-in is a dependency of this package, so hosts resolve it from here', () => {
  const dependencies = JSON.parse(readFileSync(join(BUILTIN_PLUGINS_ROOT, 'package.json'), 'utf8')).dependencies;
  for (const id of DEFAULT_MANIFEST.plugins) expect(dependencies).toHaveProperty([id]);
});

it('every built-in declares valid plugin metadata with a session facet, and names each facet `<id>-<host>`', () => {
  for (const id of DEFAULT_MANIFEST.plugins) {
    const { facets } = metadataOf(id);
    expect(facets.session).toBe(`${id}-session`);
    for (const [host, module] of Object.entries(facets)) expect(module).toBe(`${id}-${host}`);
  }
});

it('the model picker and the question dialog have TUI facets', () => {
  expect(metadataOf('@pi/providers-builtin').facets.tui).toBe('@pi/providers-builtin-tui');
  expect(metadataOf('@pi/question').facets.tui).toBe('@pi/question-tui');
});
