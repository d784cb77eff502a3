import { installTraceExport } from '@pi/trace-export';
import { parseCliOptions } from './cli-options';
import { isPackageCommand } from './commands/package-command-line';
import { EXIT } from './exit-codes';
import { runCli } from './run-cli';

/** The `pi` process: parse flags, run one command, exit with its code. Ctrl-C or SIGTERM interrupts it. */
async function main(): Promise<number> {
  // Piped text joins a -p prompt (`git diff | pi -p "review this"`); a terminal on stdin is not read.
  const argv = process.argv.slice(2);
  // pi install | remove | list act on the plugin packages on disk and talk to no host.
  if (isPackageCommand(argv)) {
    const io = {
      out: (line: string) => process.stdout.write(`${line}\n`),
      err: (line: string) => process.stderr.write(`${line}\n`),
    };
    // Loaded only for these commands: the other commands never pay for the package machinery.
    const { runPackageCommand } = await import('./commands/packages');
    return runPackageCommand(argv, { io, env: process.env, cwd: process.cwd() });
  }
  const printing = argv.some((arg) => arg === '-p' || arg === '--print' || arg.startsWith('--print='));
  const stdinText = printing && !process.stdin.isTTY ? await readStdin() : undefined;
  const options = parseCliOptions(argv, process.cwd(), stdinText);
  if (options.isErr()) {
    process.stderr.write(`pi: ${options.error}\n`);
    return EXIT.usage;
  }
  const interrupt = new AbortController();
  const onSignal = () => interrupt.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // A reader that went away (`pi -p … | head`) ends the command like Ctrl-C: what it started is still stopped.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') interrupt.abort();
  });
  return runCli(options.value, {
    io: {
      out: (line) => process.stdout.write(`${line}\n`),
      err: (line) => process.stderr.write(`${line}\n`),
    },
    env: process.env,
    interrupted: interrupt.signal,
    // Only --mode rpc reads stdin (line by line, as commands).
    ...(options.value.command === 'rpc' ? { input: process.stdin } : {}),
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
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
