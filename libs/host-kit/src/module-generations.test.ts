import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PluginManifest } from '@pi/kernel';
import { loadFacets } from './facet-loader';
import { generationUrl } from './module-generations';
import { createPluginSandbox, type PluginSandbox } from './testing';

const manifestOf = (id: string): PluginManifest => ({ entries: [{ id, config: null }] });
const lookupIn = (sandbox: PluginSandbox) => ({
  baseDirectory: sandbox.root,
  packageRoots: [sandbox.root],
  source: 'manifest /test/manifest.json',
});

/** A plugin whose facet returns what its helper module (and a dependency of its own) say. */
async function installGreeter(sandbox: PluginSandbox, greeting: string): Promise<string> {
  return sandbox.install({
    name: 'greeter-plugin',
    pi: { apiVersion: '2.0', facets: { session: './session.mjs' } },
    files: {
      'session.mjs':
        "import { greeting } from './lib/helper.mjs';\nimport { stamp } from 'dep';\nexport default () => `${greeting} ${stamp}`;\n",
      'lib/helper.mjs': `export const greeting = ${JSON.stringify(greeting)};\n`,
      'node_modules/dep/package.json': JSON.stringify({ name: 'dep', type: 'module', main: 'index.mjs' }),
      'node_modules/dep/index.mjs': 'export const stamp = Math.random();\n',
    },
  });
}

async function greetingOf(sandbox: PluginSandbox, generation?: number): Promise<string> {
  const loaded = await loadFacets(manifestOf('greeter-plugin'), 'session', lookupIn(sandbox), generation);
  const [facet] = loaded._unsafeUnwrap();
  const sessionFacet = facet?.facet as unknown as () => string;
  return String(sessionFacet());
}

describe('fresh module generations', () => {
  it('imports an edited helper of a plugin again for a new generation, and keeps its dependencies', async () => {
    await using sandbox = await createPluginSandbox();
    const folder = await installGreeter(sandbox, 'hello');
    const first = await greetingOf(sandbox, 1);
    await writeFile(join(folder, 'lib/helper.mjs'), 'export const greeting = "edited";\n');

    const second = await greetingOf(sandbox, 2);
    const again = await greetingOf(sandbox, 2);

    expect(first).toMatch(/^hello /);
    expect(second).toMatch(/^edited /);
    // The dependency under the plugin's node_modules is one instance across generations.
    expect(second.split(' ')[1]).toBe(first.split(' ')[1]);
    expect(again).toBe(second);
  });

  it('keeps the cached modules when no generation is asked for', async () => {
    await using sandbox = await createPluginSandbox();
    const folder = await installGreeter(sandbox, 'cached');
    await greetingOf(sandbox);
    await writeFile(join(folder, 'lib/helper.mjs'), 'export const greeting = "edited";\n');
    expect(await greetingOf(sandbox)).toMatch(/^cached /);
  });

  it('carries a generation only to modules under the parent’s package root, outside its node_modules', () => {
    const parent = 'file:///p/plugin/session.mjs?pi-generation=3&pi-root=file%3A%2F%2F%2Fp%2Fplugin';
    expect(generationUrl('file:///p/plugin/lib/a.mjs', parent)).toBe(
      'file:///p/plugin/lib/a.mjs?pi-generation=3&pi-root=file%3A%2F%2F%2Fp%2Fplugin',
    );
    expect(generationUrl('file:///p/plugin/node_modules/x/a.mjs', parent)).toBe(
      'file:///p/plugin/node_modules/x/a.mjs',
    );
    expect(generationUrl('file:///p/plugin-other/a.mjs', parent)).toBe('file:///p/plugin-other/a.mjs');
    expect(generationUrl('node:fs', parent)).toBe('node:fs');
    expect(generationUrl('file:///p/plugin/lib/a.mjs', 'file:///p/plugin/session.mjs')).toBe(
      'file:///p/plugin/lib/a.mjs',
    );
  });
});
