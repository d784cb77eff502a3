// Loaded by .oxlintrc.json as a JS plugin without rules, for its effect on the process it is loaded into.
//
// Nx's module-boundary rule reads the project graph once per run only when it believes it runs in a terminal (it
// recognises the ESLint and Nx CLIs by their script's path), and again for every file otherwise, as an editor needs.
// A run of oxlint's CLI is such a terminal run: without this, reading the graph for each of 1,800 files cost 13 s of
// CPU. The language server (`oxlint --lsp`, an editor's) still reads it afresh for every file.
import { createRequire } from 'node:module';

if (!process.argv.includes('--lsp')) {
  const runtime = createRequire(import.meta.url)('@nx/eslint-plugin/src/utils/runtime-lint-utils');
  runtime.isTerminalRun = () => true;
}

export default { meta: { name: 'nx-graph-once' }, rules: {} };
