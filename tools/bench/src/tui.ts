import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { removeAllSandboxes } from './tui/sandbox';
import { parseTuiBenchOptions } from './tui/tui-options';
import { formatTuiReport, reportRows } from './tui/tui-report';
import { tuiToJson } from './tui/tui-results';
import { runTuiBench } from './tui/run-tui-bench';

/**
 * `npm run bench:tui`: keypress latency, a 1,000-delta stream, the cost of one append at 10 and 5,000 entries, and
 * the cold start of `npm start`. Progress goes to stderr; the table to stdout; the figures to tools/bench/out/tui.json.
 * Every process the cold start runs (pi-tui, coordinators, sessions) is stopped at the end, after a failure and on
 * Ctrl+C as well.
 */
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    process.stderr.write(`bench:tui: ${signal}, stopping what it started\n`);
    void removeAllSandboxes().finally(() => process.exit(130));
  });
}
const options = parseTuiBenchOptions(process.argv.slice(2));
const results = await runTuiBench(options, (line) => process.stderr.write(`${line}\n`)).finally(removeAllSandboxes);
const targets = reportRows(results).flatMap((row) =>
  row.check === undefined ? [] : [{ figure: row.figure.trim(), target: row.check.target, met: row.check.met }],
);
const out = fileURLToPath(new URL('../out/', import.meta.url));
await mkdir(out, { recursive: true });
await writeFile(`${out}tui.json`, `${JSON.stringify({ ...tuiToJson(results), targets }, null, 2)}\n`);
process.stdout.write(`${formatTuiReport(results).join('\n')}\n\nwritten: tools/bench/out/tui.json\n`);
// The session hosts and TUI hosts were stopped; exit rather than wait on a handle a plugin forgot.
process.exit(0);
