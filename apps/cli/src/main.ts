import { installTraceExport } from '@pi/trace-export';
import { parseCliOptions } from './cli-options';
import { EXIT } from './exit-codes';
import { runCli } from './run-cli';

/** The `pi` process: parse flags, run one command, exit with its code. Ctrl-C or SIGTERM interrupts it. */
async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2), process.cwd());
  if (options.isErr()) {
    process.stderr.write(`pi: ${options.error}\n`);
    return EXIT.usage;
  }
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return runCli(options.value, {
    io: {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    },
    env: process.env,
    interrupted: interrupt.signal,
  });
}

// Before the first span; OTEL_EXPORTER_OTLP_ENDPOINT unset installs nothing.
const traceExport = await installTraceExport({ env: process.env, defaultServiceName: 'pi-cli' });
try {
  process.exitCode = await main();
} catch (error) {
  process.stderr.write(`pi: internal: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = EXIT.failed;
}
// The last spans leave before the exit.
await traceExport?.shutdown();
// Exit once stdout has drained (a pipe may still hold output), rather than wait on a handle left open.
process.stdout.write('', () => process.exit(process.exitCode));
