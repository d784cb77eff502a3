import { chmod } from 'node:fs/promises';
import { build, type Plugin } from 'esbuild';
import { nodeModuleBundle } from './bundle-javascript';

/**
 * ws loads these optional native speed-ups inside a try; left out of the bundle, the `require` fails there and ws
 * falls back to JavaScript, as it does when they are not installed.
 */
const OPTIONAL_NATIVE = /^(bufferutil|utf-8-validate)$/;

const optionalNative: Plugin = {
  name: 'optional-native',
  setup(builder) {
    builder.onResolve({ filter: OPTIONAL_NATIVE }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * Bundles a program's `entry` with every package it imports into one executable ES module for Node (a `#!` line
 * first), so that installing it installs nothing else and nothing compiles TypeScript at run time.
 */
export async function bundleProgram(entry: string, outfile: string, nodeTarget: string): Promise<void> {
  await build({
    ...nodeModuleBundle(entry, outfile, nodeTarget),
    // A package's ES module build where it has one: unused exports are then left out.
    mainFields: ['module', 'main'],
    // A bundled ES module has no `require`; the CommonJS packages inside it (ws) ask for Node's modules by it.
    banner: {
      js: [
        '#!/usr/bin/env node',
        "import { createRequire as __piCreateRequire } from 'node:module';",
        'const require = __piCreateRequire(import.meta.url);',
      ].join('\n'),
    },
    plugins: [optionalNative],
  });
  await chmod(outfile, 0o755);
}
