import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadedModules, moduleLogEnvironment } from './module-log';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function workspace(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'pi-module-log-'));
  folders.push(root);
  return root;
}

const url = (path: string) => pathToFileURL(path).href;

describe('a module log', () => {
  it('runs the program from its sources unless asked for its bundle, with the logging hook after the given options', () => {
    const fromSources = moduleLogEnvironment('/tmp/log', { NODE_OPTIONS: '--max-old-space-size=100' });
    expect(fromSources).toEqual({
      PI_MODULE_LOG: '/tmp/log',
      NODE_OPTIONS: expect.stringMatching(/^--max-old-space-size=100 --import=file:.*\/module-log\/register\.mjs$/),
      PI_FROM_SOURCE: '1',
    });
    const bundled = moduleLogEnvironment('/tmp/log', {}, { bundled: true });
    expect(bundled).not.toHaveProperty('PI_FROM_SOURCE');
    expect(bundled['NODE_OPTIONS']).toMatch(/^--import=file:/);
  });

  it("reads a bundle's file as the modules esbuild put in it, in load order, and leaves every other URL as logged", async () => {
    const root = await workspace();
    const bundle = join(root, 'dist', 'apps', 'demo');
    await mkdir(join(bundle, 'chunks'), { recursive: true });
    const outputs = {
      'dist/apps/demo/demo.mjs': { inputs: { 'apps/demo/src/main.ts': {} } },
      'dist/apps/demo/chunks/sdk-X1.mjs': { inputs: { 'node_modules/sdk/a.js': {}, 'node_modules/sdk/b.js': {} } },
    };
    await writeFile(join(bundle, 'meta.json'), JSON.stringify({ inputs: {}, outputs }));
    const log = join(root, 'modules.log');
    const unknownChunk = join(bundle, 'chunks', 'not-in-meta.mjs');
    const lines = [
      url(join(bundle, 'demo.mjs')),
      'node:fs',
      url(join(root, 'node_modules', 'ws', 'index.js')),
      url(join(bundle, 'chunks', 'sdk-X1.mjs')),
      url(unknownChunk),
    ];
    await writeFile(log, `${lines.join('\n')}\n`);
    expect(await loadedModules(log)).toEqual([
      url(join(root, 'apps', 'demo', 'src', 'main.ts')),
      'node:fs',
      url(join(root, 'node_modules', 'ws', 'index.js')),
      url(join(root, 'node_modules', 'sdk', 'a.js')),
      url(join(root, 'node_modules', 'sdk', 'b.js')),
      url(unknownChunk),
    ]);
  });

  it('is empty when the program logged nothing', async () => {
    expect(await loadedModules(join(await workspace(), 'none.log'))).toEqual([]);
  });
});
