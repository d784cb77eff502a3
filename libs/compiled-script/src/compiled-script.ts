import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

const WORKSPACE = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Inside the workspace (its gitignored tmp/), so a script's external packages resolve from its node_modules. */
const OUT_DIR = join(WORKSPACE, 'tmp', 'test-scripts');

/**
 * Third-party packages stay in node_modules (native addons among them); the workspace's own packages export their
 * TypeScript sources, which node cannot run, so they are bundled.
 */
const externalPackages: Plugin = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind !== 'entry-point' && !args.path.startsWith('@pi/') ? { path: args.path, external: true } : undefined,
    );
  },
};

const compiled = new Map<string, Promise<string>>();

/**
 * A TypeScript program a test spawns (`entry`, a path), bundled into one ES module that plain `node` runs: the
 * transform is paid once per test process and source instead of by tsx in every spawned child (about 0.7 s of CPU
 * each). The file is named by its content, so workers that compile the same script write the same file.
 */
export function compiledScript(entry: string): Promise<string> {
  let script = compiled.get(entry);
  if (script === undefined) {
    script = compile(entry);
    compiled.set(entry, script);
  }
  return script;
}

async function compile(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    absWorkingDir: WORKSPACE,
    logLevel: 'silent',
    // A bundled ES module has no `require`; some dependencies' CommonJS shims ask for one.
    banner: {
      js: "import { createRequire as __piCreateRequire } from 'node:module'; const require = __piCreateRequire(import.meta.url);",
    },
    plugins: [externalPackages],
  });
  const text = result.outputFiles[0]?.text ?? '';
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const path = join(OUT_DIR, `${basename(entry).replace(/\.[cm]?tsx?$/, '')}-${hash}.mjs`);
  await mkdir(OUT_DIR, { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, text);
  await rename(partial, path);
  return path;
}
