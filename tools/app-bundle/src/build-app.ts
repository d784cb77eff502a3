import { readdirSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';
import { WORKSPACE_ROOT, bundleFolder, type AppBundle } from './apps';
import { builtinFacets } from './builtin-facets';

/** What a build leaves beside the bundle so that a start can tell whether it is stale. */
export interface BuildInfo {
  readonly builtAt: number;
  /** Every source file the bundle was made of, and the bundler's own, relative to the workspace. */
  readonly inputs: readonly string[];
}

/**
 * This tool's own sources: they decide how a bundle is built (what stays external, which facets are entries), so a
 * change to one makes every bundle stale, as a change to a bundled source does.
 */
const BUILD_SOURCES = readdirSync(dirname(fileURLToPath(import.meta.url)))
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => relative(WORKSPACE_ROOT, join(dirname(fileURLToPath(import.meta.url)), file)));

/**
 * Packages left to node_modules at run time: native addons (the SQLite driver loads the prebuilt binary in its own
 * package; pg-native, which pg loads only when asked for, is not even installed), and packages that find files beside
 * their own modules (blessed's widgets and terminfo data, tsx's loader hooks). Every other package is bundled: a start
 * then reads a few chunks instead of resolving and compiling hundreds of small files (a session listens 35 % sooner).
 */
const UNBUNDLED = /^(@photostructure\/sqlite|pg-native|bufferutil|utf-8-validate|blessed|tsx|esbuild)(\/|$)/;

const externalPackages: Plugin = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind !== 'entry-point' && UNBUNDLED.test(args.path) ? { path: args.path, external: true } : undefined,
    );
  },
};

/**
 * zod's core and classic API re-export every locale (`z.locales`, ~370 KB of the 780 KB zod puts in a bundle) and configures
 * English. pi sets no other locale, and the re-export keeps them all alive, so `../locales/index.js` inside zod is
 * English alone: each program start compiles that much less code.
 */
const englishOnlyZod: Plugin = {
  name: 'english-only-zod',
  setup(builder) {
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: 'zod-english-locales', namespace: 'english-only-zod', pluginData: dirname(args.importer) }
        : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'english-only-zod' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: args.pluginData as string,
      loader: 'js',
    }));
  },
};

/**
 * The workspace's own modules do nothing when imported but define things (no module is imported for its effect), so
 * a module none of whose exports is used is left out, with what it alone imports. That is what lets pi-tui's entry
 * take `tuiTheme` from `@pi/host-tui` and the editor without the rest of the host, blessed, zod or tRPC: its first
 * frame is painted before those load (esbuild otherwise keeps every module an index re-exports, for its top level).
 */
const sideEffectFreeSources: Plugin = {
  name: 'side-effect-free-sources',
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, async (args) => {
      if (args.kind === 'entry-point' || args.pluginData === SIDE_EFFECT_FREE_SOURCES) return undefined;
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: SIDE_EFFECT_FREE_SOURCES,
      });
      if (resolved.errors.length > 0 || resolved.external || !isWorkspaceSource(resolved.path)) return resolved;
      return { ...resolved, sideEffects: false };
    });
  },
};
const SIDE_EFFECT_FREE_SOURCES = Symbol('side-effect-free-sources');

/** A TypeScript source of a workspace project (apps, libs, plugins), not a package from node_modules. */
function isWorkspaceSource(path: string): boolean {
  const inside = relative(WORKSPACE_ROOT, path);
  return /^(apps|libs|plugins)[\\/]/.test(inside) && !/[\\/]node_modules[\\/]/.test(inside) && /\.ts$/.test(inside);
}

/**
 * Bundles one app for Node: its entry plus, as entries of their own, the built-in plugins' facet modules for its
 * host, with shared chunks so a facet and the host share one copy of every library. `facets.json` maps each facet
 * specifier to its file; the host kit's loader imports those instead of the sources.
 */
export async function buildApp(app: AppBundle, folder = bundleFolder(app)): Promise<Metafile> {
  await rm(folder, { recursive: true, force: true });
  await mkdir(folder, { recursive: true });
  const facets = app.host === null ? [] : builtinFacets(app.host);
  const entryPoints = [
    { in: join(WORKSPACE_ROOT, app.entry), out: app.output },
    ...facets.map((facet) => ({ in: facet.file, out: `facets/${facet.specifier.replace(/^@pi\//, '')}` })),
  ];
  const result = await build({
    entryPoints,
    outdir: folder,
    // Metafile paths are then relative to the workspace, whatever the caller's directory.
    absWorkingDir: WORKSPACE_ROOT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    // A package's ES module build where it has one (OpenTelemetry's): unused exports are then left out.
    mainFields: ['module', 'main'],
    target: 'node20.19',
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    keepNames: true,
    metafile: true,
    logLevel: 'silent',
    // A bundled ESM file has no `require`; some dependencies' CommonJS shims ask for one.
    banner: {
      js: "import { createRequire as __piCreateRequire } from 'node:module'; const require = __piCreateRequire(import.meta.url);",
    },
    plugins: [externalPackages, englishOnlyZod, sideEffectFreeSources],
  });
  const map = Object.fromEntries(
    facets.map((facet) => [facet.specifier, `./facets/${facet.specifier.replace(/^@pi\//, '')}.mjs`]),
  );
  await writeFile(join(folder, 'facets.json'), `${JSON.stringify(map, null, 2)}\n`);
  await Promise.all(Object.keys(result.metafile.outputs).map((output) => keepAscii(join(WORKSPACE_ROOT, output))));
  const info: BuildInfo = {
    builtAt: Date.now(),
    // A plugin's virtual module (`namespace:path`) is no file to check.
    inputs: [...Object.keys(result.metafile.inputs).filter((input) => !/^[\w-]+:/.test(input)), ...BUILD_SOURCES],
  };
  await writeFile(join(folder, 'build-info.json'), `${JSON.stringify(info)}\n`);
  await writeFile(join(folder, 'meta.json'), JSON.stringify(result.metafile));
  return result.metafile;
}

/**
 * Rewrites the characters past ASCII left in a bundle as `\u` escapes. esbuild escapes them in strings and
 * identifiers but keeps the comments it keeps (before class fields) as they are; one em dash there makes V8 hold the
 * whole chunk's source at two bytes a character, a megabyte more in every process for the largest chunk. In a comment,
 * a string or a regular expression the escape means what the character meant.
 */
export function asciiOnly(text: string): string {
  return text.replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

async function keepAscii(file: string): Promise<void> {
  if (!file.endsWith('.mjs')) return;
  const text = await readFile(file, 'utf8');
  if (/[\u0080-\uffff]/.test(text)) await writeFile(file, asciiOnly(text));
}
