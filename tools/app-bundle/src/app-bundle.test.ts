import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { isBundleCurrent } from '@pi/connection-files/launch';
import { APPS, WORKSPACE_ROOT, bundleFolder } from './apps';
import { asciiOnly, buildApp } from './build-app';

/** The tiers a bundle may carry besides shared code: its own app's only. */
const TIERS = ['scope:presentation', 'scope:session', 'scope:coordinator'];

const run = promisify(execFile);

/** The Nx tags of the project a source file belongs to (its nearest package.json with tags). */
function tagsOf(file: string): readonly string[] {
  for (let folder = dirname(join(WORKSPACE_ROOT, file)); folder.startsWith(WORKSPACE_ROOT); folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    if (existsSync(manifest))
      return (JSON.parse(readFileSync(manifest, 'utf8')).nx?.tags as string[] | undefined) ?? [];
  }
  return [];
}

/** The output files a bundled file loads before it runs (static imports, transitively), itself included. */
function loadedBeforeRunning(metafile: Metafile, output: string): string[] {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const record of metafile.outputs[file]?.imports ?? []) {
      if (record.kind === 'import-statement' && !record.external) visit(record.path);
    }
  };
  visit(output);
  return [...loaded];
}

describe('a bundle made ASCII only', () => {
  it('escapes what is past ASCII so that strings, expressions and comments mean what they meant', () => {
    const source = 'const dash = "—"; const thumb = "👍"; const word = /é+/u; // at once — or later';
    const escaped = asciiOnly(source);
    expect(/[\u0080-\uffff]/.test(escaped)).toBe(false);
    const evaluate = (code: string) =>
      new Function(`${code}\nreturn [dash, thumb, word.test('éé'), word.test('e')];`)() as unknown[];
    expect(evaluate(escaped)).toEqual(['—', '👍', true, false]);
    expect(evaluate(source)).toEqual(evaluate(escaped));
  });
});

describe.each(APPS)('the $name bundle', (app) => {
  const folder = bundleFolder(app);
  let metafile: Metafile;
  beforeAll(async () => {
    // The bundle in dist/apps that the suite's programs start from: the test executor makes every bundle current
    // before the first test, and a file run alone builds a stale one here. Building each app again into a folder of
    // its own cost the suite ~10 s of CPU for bundles equal to these.
    if (!(await isBundleCurrent(pathToFileURL(join(folder, `${app.output}.mjs`))))) await buildApp(app, folder);
    metafile = JSON.parse(await readFile(join(folder, 'meta.json'), 'utf8')) as Metafile;
  });

  it('runs under plain node', async () => {
    const { stdout } = await run(process.execPath, [join(folder, `${app.output}.mjs`), '--help']);
    expect(stdout).toContain(`Usage: ${app.output}`);
  });

  it('is ASCII only, so V8 keeps every chunk at one byte a character', async () => {
    for (const output of Object.keys(metafile.outputs).filter((file) => file.endsWith('.mjs'))) {
      expect(/[\u0080-\uffff]/.test(await readFile(join(WORKSPACE_ROOT, output), 'utf8')), output).toBe(false);
    }
  });

  it('counts the bundler’s own sources among its inputs, so changing how bundles are built makes them stale', async () => {
    const info = JSON.parse(await readFile(join(folder, 'build-info.json'), 'utf8')) as { inputs: string[] };
    expect(info.inputs).toContain(join('tools', 'app-bundle', 'src', 'build-app.ts'));
    expect(info.inputs).toContain(app.entry);
  });

  it("carries zod's English messages and no other locale, and lists only real files as its inputs", async () => {
    const locales = Object.keys(metafile.inputs).filter((input) => /zod[\\/]v4[\\/]locales[\\/]/.test(input));
    if (locales.length > 0) expect(locales.map((input) => input.replace(/.*[\\/]/, ''))).toEqual(['en.js']);
    const info = JSON.parse(await readFile(join(folder, 'build-info.json'), 'utf8')) as { inputs: string[] };
    expect(info.inputs.filter((input) => !existsSync(join(WORKSPACE_ROOT, input)))).toEqual([]);
  });

  it('carries the built-in facet modules of its host (none for a program without plugins), and no other tier', async () => {
    const facets = JSON.parse(await readFile(join(folder, 'facets.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(facets).length > 0).toBe(app.host !== null);
    for (const [specifier, file] of Object.entries(facets)) {
      expect(specifier.endsWith(`-${app.host}`)).toBe(true);
      expect(existsSync(join(folder, file))).toBe(true);
    }
    const scopes = new Set(
      Object.keys(metafile.inputs)
        .flatMap((input) => tagsOf(input))
        .filter((tag) => tag.startsWith('scope:')),
    );
    const own = tagsOf(app.entry).find((tag) => tag.startsWith('scope:'));
    expect(own !== undefined && scopes.has(own)).toBe(true);
    for (const foreign of TIERS.filter((scope) => scope !== own)) {
      expect(scopes.has(foreign), `${app.name} bundles ${foreign} code`).toBe(false);
    }
  });

  it('carries the license notice of the code pi ports (string-width in @pi/terminal) wherever it bundles that code', async () => {
    const ported = 'libs/terminal/src/text/text-columns.ts';
    const carriers = Object.entries(metafile.outputs)
      .filter(([, output]) => ported in output.inputs)
      .map(([file]) => file);
    // The TUI measures text: its bundle carries the port.
    if (app.name === 'tui') expect(carriers).not.toEqual([]);
    for (const file of carriers) {
      expect(await readFile(join(WORKSPACE_ROOT, file), 'utf8'), file).toContain(
        'Copyright (c) Sindre Sorhus <sindresorhus@gmail.com>',
      );
    }
  });

  it.runIf(app.name === 'tui')(
    'loads only what the startup screen needs before it paints: no TUI host, blessed, zod, transport or string-width',
    () => {
      const entry = Object.keys(metafile.outputs).find((file) => file.endsWith(`/${app.output}.mjs`));
      expect(entry).toBeDefined();
      const files = loadedBeforeRunning(metafile, entry ?? '');
      const inputs = files.flatMap((file) => Object.keys(metafile.outputs[file]?.inputs ?? {}));
      const externals = files.flatMap((file) =>
        (metafile.outputs[file]?.imports ?? []).filter((record) => record.external).map((record) => record.path),
      );
      expect(inputs).toContain('apps/tui/src/startup-screen.ts');
      // string-width compiles its Unicode-set regular expressions at import: @pi/terminal builds its own on first use.
      const packages = /node_modules[\\/](zod|ws|@trpc|@opentelemetry|string-width)[\\/]/;
      expect(inputs.filter((input) => packages.test(input))).toEqual([]);
      // `@pi/transport-trpc/url` is the one dependency-free entry the flag parser may load: it checks a --url.
      const heavy = inputs.filter(
        (input) =>
          /^libs[\\/](host-tui|host-kit|transport-trpc|remote)[\\/]/.test(input) &&
          !/^libs[\\/]transport-trpc[\\/]src[\\/]websocket-url\.ts$/.test(input),
      );
      expect(heavy).toEqual([]);
      expect(externals.filter((name) => !name.startsWith('node:'))).toEqual([]);
      const bytes = files.reduce((sum, file) => sum + (metafile.outputs[file]?.bytes ?? 0), 0);
      expect(bytes).toBeLessThan(200_000);
    },
  );
});
