import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseBenchOptions } from './bench-options';
import { formatReport } from './report';
import { toJson } from './results';
import { runBench } from './run-bench';

/**
 * `npm run bench:rpc`: pi's RPC beside a raw `ws` floor and its peers, in one run on one machine.
 * Progress goes to stderr; the table to stdout; the figures to tools/bench/out/rpc.json.
 */
const options = parseBenchOptions(process.argv.slice(2));
const results = await runBench(options, (line) => process.stderr.write(`${line}\n`));
const out = fileURLToPath(new URL('../out/', import.meta.url));
await mkdir(out, { recursive: true });
await writeFile(`${out}rpc.json`, `${JSON.stringify(toJson(results), null, 2)}\n`);
process.stdout.write(`${formatReport(results).join('\n')}\n\nwritten: tools/bench/out/rpc.json\n`);
