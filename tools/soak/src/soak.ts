import { runRow } from './soak-row';
import { ROWS } from './rows';
import { USAGE, parseSoakOptions } from './soak-options';
import { formatSoakTable } from './soak-table';
import { removeAllHomes } from './soak-home';
import type { RowReport } from './row-report';

/**
 * `npm run soak`: pi's real programs through hostile and heavy use, one row per case, in temporary homes on
 * loopback only. Progress goes to stderr, the table to stdout; the exit code is 1 when a row failed.
 */
async function main(): Promise<number> {
  const parsed = parseSoakOptions(process.argv.slice(2));
  if (parsed.isErr()) {
    process.stderr.write(`soak: ${parsed.error}\n`);
    return 2;
  }
  const options = parsed.value;
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  const reports: RowReport[] = [];
  for (const name of options.rows) {
    const started = performance.now();
    log(`[${name}] started${options.quick ? ' (quick)' : ''}`);
    const report = await runRow(ROWS[name], options, log);
    log(`[${name}] ${report.verdict} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    reports.push(report);
  }
  process.stdout.write(`\n${formatSoakTable(reports).join('\n')}\n`);
  return reports.some((report) => report.verdict === 'FAIL') ? 1 : 0;
}

// Ctrl-C: the rows' homes (and every program started from them) go before the exit.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`soak: ${signal}, removing the temporary homes\n`);
    void removeAllHomes().finally(() => process.exit(130));
  });
}
process.exitCode = await main();
await removeAllHomes();
process.exit(process.exitCode);
