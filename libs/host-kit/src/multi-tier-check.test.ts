import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PluginManifest } from '@pi/kernel';
import { loadFacets } from './facet-loader';
import { createPluginSandbox, loadedMarkers, recordingModule, type PluginSandbox } from './testing';

const manifestOf = (id: string): PluginManifest => ({ entries: [{ id, config: null }] });
const lookupIn = (sandbox: PluginSandbox) => ({
  baseDirectory: sandbox.root,
  packageRoots: [sandbox.root],
  source: 'manifest /test/manifest.json',
});
const bothHosts = { apiVersion: '2.0', facets: { session: './index.mjs', tui: './index.mjs' } };
/** The plugin of issue 23: one module, a session and a TUI facet sharing a module-level counter. */
const sharedCounter = [
  '',
  'let count = 0;',
  'export default {',
  '  session: () => { count += 1; },',
  '  tui: () => count,',
  '};',
].join('\n');

describe('a module several hosts import, checked for module-level state before it runs', () => {
  it('is refused with its file and the line of the binding, and is never evaluated', async () => {
    await using sandbox = await createPluginSandbox();
    const marker = `shared-${randomUUID()}`;
    const folder = await sandbox.install({
      name: 'shared',
      pi: bothHosts,
      files: { 'index.mjs': recordingModule(marker, sharedCounter) },
    });
    const loaded = await loadFacets(manifestOf('shared'), 'tui', lookupIn(sandbox));
    const error = loaded._unsafeUnwrapErr();
    expect(error.code).toBe('multi_tier_state');
    // The recording line comes first, so the `let` is on line 3 of the file.
    expect(error.message).toContain(`${join(folder, 'index.mjs')}:3:5: "count" (let)`);
    expect(error.message).toContain('the session and tui facet');
    expect(error.message).toContain('Plugin "shared" in manifest /test/manifest.json');
    expect(loadedMarkers()).not.toContain(marker);
  });

  it('refuses a const object that a facet writes to', async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.install({
      name: 'shared-object',
      pi: bothHosts,
      files: {
        'index.mjs':
          'const shared = { count: 0 };\nexport default { session: () => { shared.count++; }, tui: () => {} };',
      },
    });
    const error = (await loadFacets(manifestOf('shared-object'), 'session', lookupIn(sandbox)))._unsafeUnwrapErr();
    expect(error.message).toContain('index.mjs:1:7: "shared" (const object)');
  });

  it('loads a multi-host module whose top level holds only const bindings it never writes to', async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.install({
      name: 'const-only',
      pi: bothHosts,
      files: {
        'index.mjs': 'const greeting = "hi";\nexport default { session: () => greeting, tui: () => greeting };',
      },
    });
    const loaded = await loadFacets(manifestOf('const-only'), 'tui', lookupIn(sandbox));
    expect(loaded._unsafeUnwrap().map(({ id }) => id)).toEqual(['const-only']);
  });

  it('exempts a module only one host imports, even with let at its top level', async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.install({
      name: 'single-tier',
      pi: { apiVersion: '2.0', facets: { session: './session.mjs', tui: './tui.mjs' } },
      files: {
        'session.mjs': 'let count = 0;\nexport default () => { count += 1; };',
        'tui.mjs': 'let shown = 0;\nexport default () => { shown += 1; };',
      },
    });
    const loaded = await loadFacets(manifestOf('single-tier'), 'session', lookupIn(sandbox));
    expect(loaded._unsafeUnwrap().map(({ id }) => id)).toEqual(['single-tier']);
  });

  it('refuses a multi-host module it cannot parse, saying why', async () => {
    await using sandbox = await createPluginSandbox();
    await sandbox.install({ name: 'broken', pi: bothHosts, files: { 'index.mjs': 'export default {' } });
    const error = (await loadFacets(manifestOf('broken'), 'session', lookupIn(sandbox)))._unsafeUnwrapErr();
    expect(error.code).toBe('multi_tier_state');
    expect(error.message).toContain('cannot be parsed');
  });
});
