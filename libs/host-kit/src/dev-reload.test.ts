import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { pluginRootsOf, startDevReload, type DevReload } from './dev-reload';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function pluginFolder(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'pi-dev-'));
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'package.json'), '{"name":"dev-plugin","type":"module"}');
  await mkdir(join(root, 'lib'));
  await mkdir(join(root, 'node_modules', 'dep'), { recursive: true });
  return root;
}

/** Starts watching `root`; each reload resolves the next promise of `reloads`. */
async function watching(root: string): Promise<{ dev: DevReload; next(): Promise<string> }> {
  const waiting: Array<(file: string) => void> = [];
  const heard: string[] = [];
  const dev = startDevReload({
    roots: async () => [root],
    reload: async (file) => {
      const resolve = waiting.shift();
      if (resolve === undefined) heard.push(file);
      else resolve(file);
    },
    debounceMs: 20,
  });
  cleanups.push(() => dev.close());
  await dev.ready;
  return {
    dev,
    next: () => {
      const early = heard.shift();
      return early === undefined ? new Promise((resolve) => waiting.push(resolve)) : Promise.resolve(early);
    },
  };
}

describe('--dev reloads', () => {
  it('reloads once for a save of several writes under a plugin root, naming the file', async () => {
    const root = await pluginFolder();
    const { next } = await watching(root);
    const reloaded = next();
    await writeFile(join(root, 'lib', 'helper.mjs'), 'export const a = 1;\n');
    await writeFile(join(root, 'lib', 'helper.mjs'), 'export const a = 2;\n');
    expect(await reloaded).toBe(join(root, 'lib', 'helper.mjs'));
  });

  it('ignores changes in node_modules', async () => {
    const root = await pluginFolder();
    const { next } = await watching(root);
    const reloaded = next();
    // Last written, node_modules would name the reload's file were it not ignored.
    await writeFile(join(root, 'session.mjs'), 'export default () => {};\n');
    await writeFile(join(root, 'node_modules', 'dep', 'index.mjs'), 'export {};\n');
    expect(await reloaded).toBe(join(root, 'session.mjs'));
  });

  it('watches the package folders of facets loaded from disk, not bundled or installed ones', async () => {
    const root = await pluginFolder();
    const facet = (module: string) => ({ id: module, config: null, facet: () => undefined, module });
    const own = pathToFileURL(join(root, 'lib', 'session.mjs')).href;
    const installed = pathToFileURL(join(root, 'node_modules', 'dep', 'index.mjs')).href;
    const bundled = 'file:///app/dist/chunk.mjs';
    expect(
      await pluginRootsOf([facet(`${own}?pi-generation=2`), facet(installed), facet(bundled)], { x: bundled }),
    ).toEqual([root]);
  });
});
