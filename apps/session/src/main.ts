import { ROOT_TELEMETRY, takeEnvironmentCarrier } from '@pi/context';
import { installTraceExport } from '@pi/trace-export';
import { startedLines, stoppedLine } from './announcements';
import { USAGE, parseCliOptions } from './cli-options';
import { startSession } from './start-session';

/**
 * Resolves with the first SIGINT or SIGTERM (or, with `--stop-with-stdin`, the end of standard input); listening from
 * the start, so one that comes during startup is not lost.
 */
function nextStop(stopWithStdin: boolean): Promise<string> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
    if (stopWithStdin) {
      process.stdin.once('end', () => resolve('the end of its input (its launcher is gone)'));
      process.stdin.once('error', () => resolve('the end of its input (its launcher is gone)'));
      process.stdin.resume();
    }
  });
}

/** The pi-session process: parse flags, start, print where it listens, stop on SIGINT/SIGTERM. */
async function main(): Promise<number> {
  const options = parseCliOptions(process.argv.slice(2), process.cwd());
  if (options.isErr()) {
    process.stderr.write(`pi-session: ${options.error}\n`);
    return 2;
  }
  if (options.value.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const stopSignal = nextStop(options.value.stopWithStdin);
  // A coordinator that spawned this process passed its `session.spawn` span in the environment: the startup links to it.
  const spawnedBy = takeEnvironmentCarrier(process.env);
  const started = await ROOT_TELEMETRY.startSpan({ name: 'session.start', links: [spawnedBy] }, async (span) => {
    const outcome = await startSession(options.value, process.env, span);
    if (outcome.isOk()) span.setAttribute('pi.session_id', outcome.value.sessionId);
    span.setAttribute('pi.outcome', outcome.isOk() ? 'started' : 'failed');
    return outcome;
  });
  if (started.isErr()) {
    process.stderr.write(`pi-session: ${started.error}\n`);
    return 1;
  }
  const session = started.value;
  // A repaired session file is worth one line: the user may wonder where the end of a crashed run went.
  if (session.recovery.length > 0) {
    process.stderr.write(
      `pi-session ${session.sessionId}: recovered the session file: ${session.recovery.join('; ')}\n`,
    );
  }
  // One write: a reader that has the first line has the attach line too.
  process.stdout.write(`${startedLines(session, options.value, process.cwd()).join('\n')}\n`);
  // A signal, or its coordinator asking (a session it cannot signal: on another host, or another replica's).
  const signal = await Promise.race([stopSignal, session.stopRequested]);
  const failures = await session.stop();
  for (const failure of failures) process.stderr.write(`pi-session: disposal failed: ${failure}\n`);
  process.stdout.write(`${stoppedLine(session.sessionId, signal, options.value, process.cwd())}\n`);
  return failures.length === 0 ? 0 : 1;
}

// Before the first span; OTEL_EXPORTER_OTLP_ENDPOINT unset installs nothing.
const traceExport = await installTraceExport({ env: process.env, defaultServiceName: 'pi-session' });
try {
  process.exitCode = await main();
} catch (error) {
  // Anything unexpected (a directory that cannot be created, a file that cannot be written) is still one line.
  process.stderr.write(`pi-session: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
// The last spans leave before the exit.
await traceExport?.shutdown();
// Everything was stopped and disposed above; exit now rather than wait on a handle some plugin forgot.
process.exit(process.exitCode);
