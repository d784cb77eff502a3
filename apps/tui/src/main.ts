import { resolve } from 'node:path';
import { piDirectories } from '@pi/connection-files';
import { installTraceExport } from '@pi/trace-export';
import { USAGE, parseCliOptions } from './cli-options';
import { runTui } from './run-tui';

/** The pi-tui process: parse flags, attach (starting a session first with --start), run until the user quits. */
async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2), process.env['INIT_CWD'] ?? process.cwd());
  if (options.isErr()) {
    process.stderr.write(`pi-tui: ${options.error}\n`);
    return 2;
  }
  if (options.value.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const directories = piDirectories(process.env, options.value);
  const outcome = await runTui({ ...options.value, cwd: resolve(options.value.cwd) }, directories, process.env);
  if (outcome.isErr()) {
    process.stderr.write(`pi-tui: ${outcome.error}\n`);
    return 1;
  }
  return 0;
}

// Before the first span; OTEL_EXPORTER_OTLP_ENDPOINT unset installs nothing.
const traceExport = await installTraceExport({ env: process.env, defaultServiceName: 'pi-tui' });
process.exitCode = await main();
// The last spans leave before the exit.
await traceExport?.shutdown();
// Everything was stopped above; exit now rather than wait on a handle some plugin forgot.
process.exit(process.exitCode);
