import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { MAX_MODELS_JSON_MODELS } from '@pi/model-providers';
import { WORKSPACE, parseCatalogBenchOptions } from './models-catalog/catalog-options';
import { formatCatalogReport } from './models-catalog/catalog-report';
import { measureCatalog, type CatalogRound } from './models-catalog/measure-catalog';
import { startProbeServer } from './models-catalog/probe-server';

/**
 * `nx run @pi/bench:models-catalog`: a real pi-session (built-in plugins) with presentations watching Models and a
 * bystander calling another service, while models.json grows to each size: reloaded by the watcher, then refreshed.
 * The table on stdout, progress on stderr, the figures in tools/bench/out/models-catalog.json.
 */
const options = parseCatalogBenchOptions(process.argv.slice(2), [1_000, MAX_MODELS_JSON_MODELS, 10_000, 60_000]);
const out = fileURLToPath(new URL('../out/', import.meta.url));
const profileDir = options.profile ? `${out}profiles` : undefined;
const probes = await startProbeServer();
const rounds: CatalogRound[] = [];
try {
  for (let round = 0; round < options.rounds; round += 1) {
    // The orders rotate each round, so neither a size nor a session is always measured first.
    for (const models of rotated(options.sizes, round)) {
      for (const root of rotated(options.roots, round)) {
        process.stderr.write(`round ${round + 1}/${options.rounds}: ${models} models, ${label(root)}\n`);
        rounds.push(await measureCatalog({ ...options, root, models, baseUrl: probes.baseUrl, profileDir }));
      }
    }
  }
} finally {
  await probes.close();
}
await mkdir(out, { recursive: true });
await writeFile(`${out}models-catalog.json`, `${JSON.stringify({ rounds }, null, 2)}\n`);
process.stdout.write(`${formatCatalogReport(rounds, label).join('\n')}\n\n`);
process.stdout.write('written: tools/bench/out/models-catalog.json\n');
process.exit(0);

function rotated<T>(items: readonly T[], by: number): T[] {
  return items.map((_, index) => items[(index + by) % items.length] as T);
}

/** `this` for this workspace, else the other checkout's path. */
function label(root: string): string {
  return root === WORKSPACE ? 'this' : root;
}
